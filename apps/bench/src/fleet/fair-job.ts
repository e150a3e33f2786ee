import { job } from '@x/jobs-core';
import { z } from 'zod';

/** The queue the fair fleet test claims fairly. */
export const FAIR_QUEUE = 'fair';

let onRun: (i: number, tenant: string) => void | Promise<void> = () => undefined;

/** Points the fair fleet job's body at this process's run log. */
export function routeFairJob(run: (i: number, tenant: string) => void | Promise<void>): void {
  onRun = run;
}

/** The fair fleet test's job: one attempt, so a row run twice shows in the logs as a repeat. */
export const fairJob = job({
  name: 'bench.fair',
  queue: FAIR_QUEUE,
  input: z.object({ i: z.number().int().nonnegative(), tenant: z.string() }),
  idempotencyKey: ({ i }) => String(i),
  tenant: ({ tenant }) => tenant,
  retry: { attempts: 1 },
  run: async ({ input }) => {
    await onRun(input.i, input.tenant);
  },
});
