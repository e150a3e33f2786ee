import { checkReplay, createWorker, job, resetJobDriver, setJobDriver, silentLogger } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const declaration = {
  name: 'replay.memory.checkout',
  queue: 'replay-memory',
  input: z.object({ orderId: z.string() }),
  idempotencyKey: ({ orderId }: { orderId: string }) => `checkout:${orderId}`,
  tenant: 'none' as const,
};

const v1 = job({
  ...declaration,
  async run({ input, step }) {
    await step.run('reserve', () => `reserved ${input.orderId}`);
    await step.run('charge', () => ({ amount: 120 }));
    await step.waitForEvent('shipped', 'order.shipped', {
      schema: z.object({ trackingId: z.string() }),
      timeout: '7d',
    });
  },
});

/** The same job after a deploy that renamed a step: live runs recorded by v1 diverge at `charge`. */
const v2 = job({
  ...declaration,
  name: 'replay.memory.checkout.v2',
  async run({ input, step }) {
    await step.run('reserve', () => `reserved ${input.orderId}`);
    await step.run('capture', () => ({ amount: 120 }));
    await step.waitForEvent('shipped', 'order.shipped', {
      schema: z.object({ trackingId: z.string() }),
      timeout: '7d',
    });
  },
});

describe('checkReplay over histories the memory driver recorded', () => {
  it('matches the run on the code that recorded it and reports the renamed step on the new code', async () => {
    const driver = memoryJobDriver();
    const worker = createWorker({
      driver,
      context: () => ({}),
      registry: { get: (name: string) => (name === v1.name ? v1 : undefined) },
      queues: ['replay-memory'],
      handleSignals: false,
      logger: silentLogger,
    });
    try {
      setJobDriver(driver);
      const { id } = await v1.enqueue({ orderId: 'o-1' });
      await worker.start();
      await expect
        .poll(async () => (await driver.introspect.get(id))?.state, { timeout: 30_000, interval: 20 })
        .toBe('suspended');
      await worker.stop();
      const detail = (await driver.introspect.get(id))!;
      expect(detail.steps.map((step) => [step.name, step.status])).toEqual([
        ['reserve', 'completed'],
        ['charge', 'completed'],
        ['shipped', 'started'],
      ]);
      expect(await checkReplay(v1, detail)).toEqual({ status: 'matches', replayed: 2 });
      expect(await checkReplay(v2, detail)).toMatchObject({
        status: 'diverges',
        replayed: 1,
        divergence: { position: 1, recorded: { name: 'charge' }, asked: { name: 'capture', kind: 'run' } },
      });
      expect(await driver.steps.load(detail.runId), 'the check wrote nothing').toEqual(detail.steps);
    } finally {
      resetJobDriver();
      await driver.close();
    }
  });
});
