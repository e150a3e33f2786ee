// The scratch app's one job, written against the installed packages as a user writes it.
import { job } from '@x/jobs-core';
import { z } from 'zod';

/** How the job ended, once `onSettled` ran. */
export interface Ending {
  readonly outcome: string;
  readonly greeting?: string;
  readonly length?: number;
}

let settle: (ending: Ending) => void = () => undefined;
/** Resolves with the first ending of `greet`. */
export const ended = new Promise<Ending>((resolve) => {
  settle = resolve;
});

export const greet = job({
  name: 'pack-check-greet',
  input: z.object({ who: z.string() }),
  idempotencyKey: ({ who }) => `greet:${who}`,
  tenant: 'none',
  run: async ({ input, step }) => {
    const greeting = await step.run('greet', () => `hello ${input.who}`);
    const length = await step.run('measure', () => greeting.length);
    return { greeting, length };
  },
  onSettled: (settled) => {
    if (settled.outcome === 'completed') settle({ outcome: settled.outcome, ...settled.result });
    else settle({ outcome: settled.outcome });
  },
});
