import type { JobDriver } from '@x/jobs-core';
import type { EnqueueRequest } from '@x/jobs-core/driver';
import { describe, expect, it } from 'vitest';
import { memoryJobDriver } from './memory-job-driver.js';
import { virtualClock } from './virtual-clock.js';

const request = (id: string, overrides: Partial<EnqueueRequest> = {}): EnqueueRequest => ({
  id,
  runId: `run-${id}`,
  name: 'job',
  queue: 'q',
  payload: { list: [1] },
  tenantId: null,
  idempotencyKey: id,
  priority: 0,
  maxAttempts: 3,
  ...overrides,
});

const claimAll = (driver: JobDriver) =>
  driver.claim({ queues: ['q'], limit: 10, workerId: 'w', visibilityTimeoutMs: 1_000 });

/** Lets queued microtasks (wake deliveries) run. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('memoryJobDriver', () => {
  it('refuses a bad queues option with X_QUEUE_OPTIONS_INVALID', () => {
    expect(() => memoryJobDriver({ queues: { fair: { fairness: 'fifo' } } as never })).toThrow(
      expect.objectContaining({ code: 'X_QUEUE_OPTIONS_INVALID' }),
    );
  });

  it('is deterministic: the same calls on the same clock answer the same tokens and ids', async () => {
    const run = async () => {
      const driver = memoryJobDriver({ clock: virtualClock(0) });
      await driver.enqueue(request('a'));
      await driver.enqueue(request('b'));
      const claimed = await claimAll(driver);
      const event = await driver.events.publish('e', {}, { ttlMs: 10 });
      return { tokens: claimed.map((job) => job.claim.token), event: event.id };
    };
    expect(await run()).toEqual(await run());
  });

  it('stores copies: mutating a request or an answer never changes the stored row', async () => {
    const driver = memoryJobDriver({ clock: virtualClock(0) });
    const input = request('a');
    await driver.enqueue(input);
    (input.payload as { list: number[] }).list.push(2);
    const [job] = await claimAll(driver);
    (job!.payload as { list: number[] }).list.push(3);
    const row = await driver.introspect!.get('a');
    expect(row!.payload).toEqual({ list: [1] });
  });

  it('wakes subscribers when a write makes a row due: enqueue, promote, publish, retry, resume', async () => {
    const clock = virtualClock(0);
    const driver = memoryJobDriver({ clock });
    const heard: string[] = [];
    driver.wake!.subscribe((queue) => heard.push(queue));

    await driver.enqueue(request('ready', { queue: 'enqueued' }));
    await driver.enqueue(request('later', { queue: 'promoted', runAt: 60_000 }));
    await driver.introspect!.promote('later');
    await driver.enqueue(request('waiter', { queue: 'published' }));
    const [waiter] = await driver.claim({
      queues: ['published'],
      limit: 1,
      workerId: 'w',
      visibilityTimeoutMs: 1,
    });
    await driver.nack(waiter!.id, waiter!.claim, { kind: 'suspend', runAt: 60_000, waitFor: 'go' });
    await driver.events.publish('go', {}, { ttlMs: 1_000 });
    await driver.introspect!.cancel('ready');
    await driver.introspect!.retry('ready');
    await driver.introspect!.pause('paused');
    await driver.introspect!.resume('paused');
    await flush();
    expect(heard).toEqual(['enqueued', 'promoted', 'published', 'published', 'enqueued', 'paused']);
  });

  it('a throwing wake listener does not break the write, and other listeners still hear it', async () => {
    const driver = memoryJobDriver({ clock: virtualClock(0) });
    const heard: string[] = [];
    driver.wake!.subscribe(() => {
      throw new Error('listener bug');
    });
    driver.wake!.subscribe((queue) => heard.push(queue));
    await expect(driver.enqueue(request('a'))).resolves.toMatchObject({ deduped: false });
    await flush();
    expect(heard).toEqual(['q']);
  });

  it('close drops wake subscribers', async () => {
    const driver = memoryJobDriver({ clock: virtualClock(0) });
    const heard: string[] = [];
    driver.wake!.subscribe((queue) => heard.push(queue));
    await driver.close();
    await expect(driver.enqueue(request('a'))).rejects.toMatchObject({ code: 'X_DRIVER_CLOSED' });
    await flush();
    expect(heard).toEqual([]);
  });

  it('introspect.list clamps the page size to 1..1000', async () => {
    const driver = memoryJobDriver({ clock: virtualClock(0) });
    for (const id of ['a', 'b', 'c']) await driver.enqueue(request(id));
    expect((await driver.introspect!.list({ limit: 0 })).jobs).toHaveLength(1);
    expect((await driver.introspect!.list({ limit: 5_000 })).jobs).toHaveLength(3);
  });

  it('reads the wall clock when no clock is given', () => {
    const before = Date.now();
    expect(memoryJobDriver().now()).toBeGreaterThanOrEqual(before);
  });
});
