import { job } from '@x/jobs-core';
import { z } from 'zod';
import type { OnJob } from '../system.js';

let route: OnJob = () => {};

/** Points the bench jobs' bodies at the running worker's `onJob`. */
export function routeBenchJobs(onJob: OnJob): void {
  route = onJob;
}

/** The W1–W3/W6 job: no work, reports its payload; its id is its idempotency key. */
export const benchNoop = job({
  name: 'bench.noop',
  input: z.object({ i: z.number().int().nonnegative(), t: z.number() }),
  idempotencyKey: ({ i }) => String(i),
  tenant: 'none',
  run: ({ input }) => {
    route(input);
  },
});
