import { describe, expect, it } from 'vitest';
import { QueuePool } from './queue-pool.js';

/** Resolves to whether `promise` settled within a turn of the microtask queue. */
async function settledNow(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  return settled;
}

describe('QueuePool.changed', () => {
  it('sleeps through freed slots while its condition says no, and wakes on the first that says yes', async () => {
    const pool = new QueuePool('q', 3);
    pool.take();
    pool.take();
    pool.take();
    let room = false;
    const wait = pool.changed(60_000, () => room);
    pool.give();
    expect(await settledNow(wait)).toBe(false);
    room = true;
    pool.give();
    expect(await settledNow(wait)).toBe(true);
    pool.close();
  });

  it('wakes on any other notification whatever its condition: a driver wake, shutdown', async () => {
    const pool = new QueuePool('q', 1);
    pool.take();
    const woken = pool.changed(60_000, () => false);
    pool.notify();
    expect(await settledNow(woken)).toBe(true);
    const closed = pool.changed(60_000, () => false);
    pool.close();
    expect(await settledNow(closed)).toBe(true);
  });

  it('forgets the condition once the wait ended: a later wait without one wakes on every freed slot', async () => {
    const pool = new QueuePool('q', 2);
    pool.take();
    pool.take();
    const first = pool.changed(5, () => false);
    await first; // the timeout ends it
    const second = pool.changed(60_000);
    pool.give();
    expect(await settledNow(second)).toBe(true);
    pool.close();
  });
});
