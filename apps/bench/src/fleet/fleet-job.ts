import { job } from '@x/jobs-core';
import { z } from 'zod';

let onRun: (i: number) => void | Promise<void> = () => undefined;

/** Points the fleet job's body at this process's run log. */
export function routeFleetJob(run: (i: number) => void | Promise<void>): void {
  onRun = run;
}

/**
 * The fleet SIGKILL test's job: two attempts only (`retry: { attempts: 2 }`), so a crash that
 * burned attempts of rows that never ran would dead-letter them with zero handler runs.
 */
export const fleetJob = job({
  name: 'bench.fleet',
  queue: 'fleet',
  input: z.object({ i: z.number().int().nonnegative() }),
  idempotencyKey: ({ i }) => String(i),
  tenant: 'none',
  retry: { attempts: 2, backoff: 'fixed', delay: 50 },
  run: async ({ input }) => {
    await onRun(input.i);
  },
});
