import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { job } from '../declare/job.js';
import type { ClaimOptions } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import type { AnyJobHandle } from '../job/job-handle.js';
import { recordingLogger } from '../telemetry/logger.js';
import { createWorker } from './create-worker.js';
import type { Worker, WorkerOptions } from './worker-options.js';

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

/** A worker with one pool of one slot and a buffer of one, running `handle`. */
function poolOfOne(driver: JobDriver, handle: AnyJobHandle, extra: Partial<WorkerOptions> = {}): Worker {
  const worker = createWorker({
    driver,
    context: () => ({}),
    registry: { get: (name) => (name === handle.name ? handle : undefined) },
    queues: ['q'],
    concurrency: 1,
    prefetch: 1,
    handleSignals: false,
    logger: recordingLogger(),
    ...extra,
  });
  workers.push(worker);
  return worker;
}

/** A promise and its resolve. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}

describe('a freed slot and the prefetch buffer', () => {
  it('starts the next buffered row as soon as a slot frees, while the pool has a claim in flight', async () => {
    const fake = new FakeJobDriver();
    const firstBody = gate();
    const secondStarted = gate();
    const bodies: string[] = [];
    const handle = job({
      name: `buffered-${Math.random().toString(36).slice(2)}`,
      queue: 'q',
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => String(n),
      tenant: 'none',
      async run({ input }) {
        bodies.push(`body:${input.n}`);
        if (input.n === 1) await firstBody.opened;
        if (input.n === 2) secondStarted.open();
      },
    });
    for (const n of [1, 2, 3]) fake.add({ name: handle.name, payload: { n } });
    // The second claim (the buffer's refill while the one slot is busy) hangs until the test ends.
    const refill = gate();
    const refillSent = gate();
    let claims = 0;
    const inner = fake.driver;
    const driver: JobDriver = {
      ...inner,
      claim: async (options: ClaimOptions) => {
        claims += 1;
        if (claims === 2) {
          refillSent.open();
          await refill.opened;
        }
        return inner.claim(options);
      },
    };
    const worker = poolOfOne(driver, handle);
    try {
      await worker.start();
      // The first claim filled the slot (row 1) and the buffer (row 2) and came back full, so the
      // pool refills its grown buffer at once: that claim is now in flight.
      await refillSent.opened;
      firstBody.open();
      await secondStarted.opened;
      expect(claims).toBe(2);
      expect(bodies).toEqual(['body:1', 'body:2']);
      // Row 2 counted its attempt with its own start, after row 1's work was over.
      expect(fake.calls.filter((call) => call.startsWith('start:'))).toEqual(['start:job-1', 'start:job-2']);
    } finally {
      refill.open();
    }
  }, 30_000);

  it("awaits a first attempt's start before its body with awaitEveryStart, and overlaps it without", async () => {
    for (const awaitEveryStart of [true, false]) {
      const fake = new FakeJobDriver();
      const order: string[] = [];
      const handle = job({
        name: `await-start-${Math.random().toString(36).slice(2)}`,
        queue: 'q',
        input: z.object({}),
        idempotencyKey: () => 'k',
        tenant: 'none',
        run: () => {
          order.push('body');
        },
      });
      const row = fake.add({ name: handle.name });
      const landed = gate();
      fake.wrap('start', async (next) => {
        await landed.opened;
        order.push('start-landed');
        return next();
      });
      const worker = poolOfOne(fake.driver, handle, { awaitEveryStart });
      await worker.start();
      while (!fake.calls.includes(`start:${row.id}`)) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      landed.open();
      while (row.state !== 'done') await new Promise((resolve) => setTimeout(resolve, 5));
      expect(order, `awaitEveryStart: ${awaitEveryStart}`).toEqual(
        awaitEveryStart ? ['start-landed', 'body'] : ['body', 'start-landed'],
      );
      await worker.stop();
    }
  }, 30_000);
});
