import { randomUUID } from 'node:crypto';
import type { EnqueueRequest } from '@x/jobs-core/driver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DriverPool, requireRedis } from '../../test/redis-fixture.js';
import type { RedisJobDriver } from '../index.js';
import { parseWakeMessage } from './wake-source.js';

describe('parseWakeMessage', () => {
  it('reads <dueAt>|<queue>, a queue name may hold bars', () => {
    expect(parseWakeMessage('1795942500123|emails')).toEqual({ queue: 'emails', dueAt: 1795942500123 });
    expect(parseWakeMessage('5|a|b')).toEqual({ queue: 'a|b', dueAt: 5 });
    expect(parseWakeMessage('emails')).toBeNull();
    expect(parseWakeMessage('x|emails')).toBeNull();
  });
});

describe('wake', () => {
  const pool = new DriverPool();
  beforeAll(requireRedis);
  afterEach(() => pool.cleanup());
  afterAll(() => pool.end());

  const request = (queue: string, runAt?: number): EnqueueRequest => ({
    id: randomUUID(),
    runId: randomUUID(),
    name: 'n',
    queue,
    payload: null,
    tenantId: null,
    idempotencyKey: randomUUID(),
    priority: 0,
    maxAttempts: 1,
    ...(runAt === undefined ? {} : { runAt }),
  });

  /**
   * Resolves with the first queue a new listener hears, or, given `only`, once it hears that queue
   * (wakes for other queues still in flight, like the warm-up's, are ignored).
   */
  function nextWake(driver: RedisJobDriver, only?: string) {
    return new Promise<string>((resolve) => {
      const unsubscribe = driver.wake!.subscribe((queue) => {
        if (only !== undefined && queue !== only) return;
        unsubscribe();
        resolve(queue);
      });
    });
  }

  /** Resolves once `listener` hears `queue`, enqueuing on it (from `producer`) until it does. */
  async function heardWhileEnqueuing(producer: RedisJobDriver, listener: RedisJobDriver, queue: string) {
    const heard = nextWake(listener);
    // The subscriber connects asynchronously: keep publishing until it is listening.
    const publishing = setInterval(() => void producer.enqueue(request(queue)), 20);
    try {
      return await heard;
    } finally {
      clearInterval(publishing);
    }
  }

  it('another driver on the prefix hears an enqueue on its queue (a worker in another process)', async () => {
    const producer = pool.open();
    const consumer = pool.open({ prefix: producer.prefix });
    expect(await heardWhileEnqueuing(producer, consumer, 'emails')).toBe('emails');
  });

  it('work enqueued for later wakes its queue when it comes due, and is claimable then', async () => {
    const driver = pool.open();
    await heardWhileEnqueuing(driver, driver, 'warm');
    const heard = nextWake(driver, 'later');
    const enqueuedAt = Date.now();
    const { id } = await driver.enqueue(request('later', driver.now() + 150));
    expect(await heard).toBe('later');
    expect(Date.now() - enqueuedAt).toBeGreaterThanOrEqual(100); // woken when due, not at the enqueue
    const claimed = await driver.claim({
      queues: ['later'],
      limit: 1,
      workerId: 'w',
      visibilityTimeoutMs: 1000,
    });
    expect(claimed.map((job) => job.id)).toEqual([id]);
  });
});
