import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne } from '../../test/run-one.js';
import { job } from '../declare/job.js';
import { recordingLogger } from '../telemetry/logger.js';
import { Execution } from './execute-job.js';

/** A job whose body keeps its `ctx.signal` for the test and returns at once. */
function keepsSignal() {
  const kept: { signal?: AbortSignal } = {};
  const handle = job({
    name: `keep-${Math.random().toString(36).slice(2)}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    async run({ ctx }) {
      kept.signal = ctx.signal;
    },
  });
  return { handle, kept };
}

/** A promise and its resolver. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('ctx.signal after the body returned: a lease event never aborts it', () => {
  it('a renewal answered false because the ack already landed (its reply still on the way) does not abort the signal', async () => {
    const fake = new FakeJobDriver();
    const { handle, kept } = keepsSignal();
    fake.add({ name: handle.name });
    const refusedAfterAck = deferred();
    let acked = false;
    // The ack lands on the backend at once; its reply is held until a renewal (sent after it
    // landed, so fenced out: the row is done) has answered false — the order two connections
    // can deliver replies in.
    fake.wrap('ack', async (next) => {
      const landed = await next();
      acked = true;
      await refusedAfterAck.promise;
      return landed;
    });
    fake.wrap('heartbeat', async (next) => {
      const renewed = await next();
      if (acked && !renewed) queueMicrotask(() => refusedAfterAck.resolve());
      return renewed;
    });
    const { result } = runOne(fake, handle, 600, { heartbeatIntervalMs: 5 });
    expect((await result).outcome).toBe('completed');
    expect(fake.calls.filter((call) => call.startsWith('heartbeat')).length).toBeGreaterThan(0);
    expect(kept.signal?.aborted).toBe(false);
  });

  it('a renewal refused while the settle is in flight does not abort the signal; the settle decides', async () => {
    const fake = new FakeJobDriver();
    const { handle, kept } = keepsSignal();
    fake.add({ name: handle.name });
    const refused = deferred();
    const ackSent = deferred();
    fake.wrap('ack', async (next) => {
      ackSent.resolve();
      await refused.promise;
      return next();
    });
    fake.wrap('heartbeat', async () => {
      await ackSent.promise;
      queueMicrotask(() => refused.resolve());
      return false;
    });
    const { result } = runOne(fake, handle, 600, { heartbeatIntervalMs: 5 });
    expect((await result).outcome).toBe('completed');
    expect(kept.signal?.aborted).toBe(false);
  });

  it('a reclaim noticed while the settle is in flight (supersede) does not abort the signal', async () => {
    const fake = new FakeJobDriver();
    const { handle, kept } = keepsSignal();
    fake.add({ name: handle.name });
    const ackSent = deferred();
    const superseded = deferred();
    fake.wrap('ack', async (next) => {
      ackSent.resolve();
      await superseded.promise;
      return next();
    });
    const [claimed] = fake.claimNow(1, 600);
    const execution = new Execution(
      {
        driver: fake.driver,
        registry: { get: (name) => (name === handle.name ? handle : undefined) },
        context: () => ({}),
        visibilityTimeoutMs: 600,
        logger: recordingLogger(),
      },
      claimed as NonNullable<typeof claimed>,
    );
    const result = execution.run();
    await ackSent.promise;
    execution.supersede();
    superseded.resolve();
    await result;
    expect(kept.signal?.aborted).toBe(false);
  });
});
