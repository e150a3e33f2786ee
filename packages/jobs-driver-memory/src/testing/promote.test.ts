import { job } from '@x/jobs-core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobTestHarness, type JobTestHarness } from './index.js';

let harness: JobTestHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('promote (x-jobs promote) through the memory driver and the real worker', () => {
  it('ends a step.sleep early: the run completes, the step records { wakeAt, endedEarlyAt }', async () => {
    const woke: string[] = [];
    const napper = job({
      name: 'napper',
      input: z.object({}),
      idempotencyKey: () => 'napper',
      tenant: 'none',
      async run({ step }) {
        await step.sleep('nap', '3d');
        woke.push('woke');
      },
    });
    harness = createJobTestHarness({ jobs: [napper] });
    const { id } = await harness.run(napper, {});
    await harness.drain();
    expect((await harness.job(id))?.state).toBe('suspended');
    expect(await harness.driver.introspect?.promote(id)).toBe(true);
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.state).toBe('done');
    expect(woke).toEqual(['woke']);
    const nap = row?.steps.find((step) => step.name === 'nap');
    const output = nap?.output as { wakeAt: number; endedEarlyAt: number };
    expect(output.endedEarlyAt).toBeLessThan(output.wakeAt);
    expect(row?.attempts).toBe(1);
  });

  it('only makes a waiting job look again: it parks until the event is published', async () => {
    const waiter = job({
      name: 'waiter',
      input: z.object({}),
      idempotencyKey: () => 'waiter',
      tenant: 'none',
      async run({ step }) {
        return step.waitForEvent('approval', 'approved', {
          schema: z.object({ by: z.string() }),
          timeout: '1d',
        });
      },
    });
    harness = createJobTestHarness({ jobs: [waiter] });
    const { id } = await harness.run(waiter, {});
    await harness.drain();
    expect(await harness.driver.introspect?.promote(id)).toBe(true);
    await harness.drain();
    expect((await harness.job(id))?.state).toBe('suspended');
    await harness.publishEvent('approved', { by: 'ops' });
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.state).toBe('done');
    expect(row?.result).toEqual({ by: 'ops' });
  });
});
