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
  run: async ({ input }) => {
    await route(input);
  },
});

/** W4: a job of `steps` durable steps, each returning its index, then reporting its payload. */
export const benchSteps = job({
  name: 'bench.steps',
  input: z.object({
    i: z.number().int().nonnegative(),
    t: z.number(),
    steps: z.number().int().nonnegative(),
  }),
  idempotencyKey: ({ i }) => `steps:${i}`,
  tenant: 'none',
  run: async ({ input, step }) => {
    for (let k = 0; k < input.steps; k += 1) await step.run(`s${k}`, () => k);
    await route(input);
  },
});

/**
 * W4 replay: `steps` durable steps, then a 1 ms sleep that suspends the run. The next attempt
 * replays every step from storage, passes the elapsed sleep and completes.
 */
export const benchReplay = job({
  name: 'bench.replay',
  input: z.object({ steps: z.number().int().positive() }),
  idempotencyKey: ({ steps }) => `replay:${steps}`,
  tenant: 'none',
  run: async ({ input, step }) => {
    for (let k = 0; k < input.steps; k += 1) await step.run(`s${k}`, () => k);
    await step.sleep('pause', 1);
  },
});

let stepRoute: (id: number) => void = () => {};

/** Points {@link benchStepRun}'s step bodies at the running W7 measurement. */
export function routeStepRuns(onStep: (id: number) => void): void {
  stepRoute = onStep;
}

/** W7: run `i` of `steps` no-op durable steps; step `k`'s body reports `i × steps + k`. */
export const benchStepRun = job({
  name: 'bench.step-run',
  input: z.object({ i: z.number().int().nonnegative(), steps: z.number().int().positive() }),
  idempotencyKey: ({ i }) => `step-run:${i}`,
  tenant: 'none',
  run: async ({ input, step }) => {
    for (let k = 0; k < input.steps; k += 1) {
      await step.run(`s${k}`, () => {
        stepRoute(input.i * input.steps + k);
        return k;
      });
    }
  },
});

/** The fair-claiming workload's job: one per tenant row, on its own queue (`bench-fair`). */
export const benchTenant = job({
  name: 'bench.tenant',
  queue: 'bench-fair',
  input: z.object({ i: z.number().int().nonnegative(), t: z.number(), tenant: z.string() }),
  idempotencyKey: ({ i }) => `tenant:${i}`,
  tenant: ({ tenant }) => tenant,
  run: async ({ input }) => {
    await route(input);
  },
});
