import { randomUUID } from 'node:crypto';
import { type ClaimedJob, type ClaimOptions, isFairClaim } from '@x/jobs-core/driver';
import { callScript, type DriverContext } from '../driver-context.js';
import { decodeClaimReply } from '../job-codec.js';
import { CLAIM_SCRIPT } from '../lua/claim.lua.js';
import { CLAIM_FAIR_SCRIPT } from '../lua/claim-fair.lua.js';

/**
 * Takes up to `limit` due rows of the distinct `queues` in one script call, best first: the claim
 * script, or claim-fair for a queue with `fairness: 'tenant'` (answered in its fair order).
 */
export async function claimJobs(
  context: DriverContext,
  claimOptions: ClaimOptions,
): Promise<readonly ClaimedJob[]> {
  const fair = isFairClaim(context.queues, claimOptions);
  const queues = [...new Set(claimOptions.queues)];
  const limit = Math.floor(claimOptions.limit);
  if (queues.length === 0 || !(limit >= 1)) return await context.connection.run('claim', async () => []);
  const reply = await callScript(context, 'claim', fair ? CLAIM_FAIR_SCRIPT : CLAIM_SCRIPT, [
    limit,
    Math.max(0, Math.round(claimOptions.visibilityTimeoutMs)),
    claimOptions.workerId,
    randomUUID(),
    Math.max(0, Math.trunc(claimOptions.start ?? 0)),
    ...queues,
  ]);
  return decodeClaimReply(reply, claimOptions.workerId);
}
