import { job } from '@x/jobs-core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobTestHarness, type JobTestHarness } from './index.js';

let harness: JobTestHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('step.invoke and parallel steps in the test harness', () => {
  const tag = Math.random().toString(36).slice(2);
  const charge = job({
    name: `charge-${tag}`,
    input: z.object({ cents: z.number() }),
    idempotencyKey: ({ cents }) => `charge:${cents}`,
    tenant: 'none',
    async run({ input, step }) {
      return step.run('capture', () => ({ receipt: `r-${input.cents}` }));
    },
  });
  const checkout = job({
    name: `checkout-${tag}`,
    input: z.object({ order: z.string() }),
    idempotencyKey: ({ order }) => order,
    tenant: 'none',
    async run({ step }) {
      const [a, b, note] = await Promise.all([
        step.invoke('charge-a', charge, { cents: 100 }),
        step.invoke('charge-b', charge, { cents: 250 }),
        step.run('note', () => 'ok'),
      ]);
      return [a.receipt, b.receipt, note];
    },
  });

  it('runs both children in one drain, wakes the parent through their settles, and runs each child once', async () => {
    harness = createJobTestHarness({ jobs: [charge, checkout] });
    const { id } = await harness.run(checkout, { order: 'o-1' });
    await harness.drain();
    const parent = await harness.job(id);
    expect(parent).toMatchObject({ state: 'done', result: ['r-100', 'r-250', 'ok'], attempts: 1 });
    expect(harness.trace.steps.capture).toEqual({ executions: 2, replays: 0 });
    expect(harness.trace.runs[parent!.runId]?.note).toEqual({ executions: 1, replays: 1 });
    const children = await harness.driver.introspect!.list({ name: charge.name });
    expect(children.jobs.map((row) => row.state)).toEqual(['done', 'done']);
  });
});
