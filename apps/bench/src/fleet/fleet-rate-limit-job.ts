import { job } from '@x/jobs-core';
import { z } from 'zod';

/** The fleet rate-limit test's budget: at most this many starts … */
export const FLEET_RATE_LIMIT = 3;
/** … in any window of this many ms, across every worker process. */
export const FLEET_RATE_PER_MS = 3_000;
/** The bucket the job takes from (`rateLimit.key: 'partner'`), as the drivers store it. */
export const FLEET_RATE_BUCKET = 'key:partner';

let onRun: (i: number) => void | Promise<void> = () => undefined;

/** Points the rate-limited job's body at this process's run log. */
export function routeRateLimitedJob(run: (i: number) => void | Promise<void>): void {
  onRun = run;
}

/** One call to a partner API that allows {@link FLEET_RATE_LIMIT} per {@link FLEET_RATE_PER_MS}. */
export const rateLimitedJob = job({
  name: 'bench.fleet-rate-limited',
  queue: 'fleet-rate',
  input: z.object({ i: z.number().int().nonnegative() }),
  idempotencyKey: ({ i }) => String(i),
  tenant: 'none',
  rateLimit: { key: 'partner', limit: FLEET_RATE_LIMIT, per: FLEET_RATE_PER_MS },
  run: async ({ input }) => {
    await onRun(input.i);
  },
});
