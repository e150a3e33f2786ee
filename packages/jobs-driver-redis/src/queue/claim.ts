import { randomUUID } from 'node:crypto';
import { type ClaimedJob, type ClaimOptions, type FairPolicy, isFairClaim } from '@x/jobs-core/driver';
import { callScript, type DriverContext } from '../driver-context.js';
import { decodeClaimReply } from '../job-codec.js';
import { CLAIM_SCRIPT } from '../lua/claim.lua.js';
import { CLAIM_FAIR_SCRIPT } from '../lua/claim-fair.lua.js';

/**
 * Takes up to `limit` due rows of the distinct `queues` in one script call, best first: the claim
 * script, or claim-fair for a queue with `fairness` (answered in its fair order, with its
 * tenants' row costs).
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
    ...(fair ? fairCosts(context.queues.fairPolicies.get(queues[0]!)!) : []),
  ]);
  return decodeClaimReply(reply, claimOptions.workerId);
}

/** ARGV[7] and ARGV[8] of claim-fair: the row cost of an unnamed tenant, and the named ones'. */
function fairCosts(policy: FairPolicy): [number, string] {
  const named = Object.fromEntries(
    [...policy.weights.keys()].map((tenant) => [tenant, policy.costOf(tenant)]),
  );
  return [policy.costOf(null), JSON.stringify(named)];
}
