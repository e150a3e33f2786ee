import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DUE_TIMER_SLACK_MS, DueTimer } from './due-timer.js';
import { QueuePool } from './queue-pool.js';

const timers: DueTimer[] = [];
// Fake timers (performance.now included): the firing times are exact, whatever the machine's load.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  for (const timer of timers.splice(0)) timer.close();
  vi.useRealTimers();
});

function recording() {
  const fired: number[] = [];
  const timer = new DueTimer(() => void fired.push(performance.now()));
  timers.push(timer);
  return { timer, fired };
}

describe('DueTimer', () => {
  it('fires at each pending time plus the slack, earliest first, with one setTimeout at a time', async () => {
    const { timer, fired } = recording();
    const began = performance.now();
    timer.add(3_000);
    timer.add(1_000); // earlier: re-armed for it
    timer.add(2_000);
    expect(timer.pending).toBe(3);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fired.map((at) => at - began)).toEqual([1_000, 2_000, 3_000].map((ms) => ms + DUE_TIMER_SLACK_MS));
    expect(timer.pending).toBe(0);
    expect(timer.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('serves a time just before a pending one with that firing, never earlier than asked', async () => {
    const { timer, fired } = recording();
    const began = performance.now();
    timer.add(1_004);
    timer.add(1_000);
    expect(timer.pending).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fired.map((at) => at - began)).toEqual([1_004 + DUE_TIMER_SLACK_MS]);
  });

  it('reaches a time past the longest setTimeout delay in steps, firing only when it is due', async () => {
    const { timer, fired } = recording();
    const began = performance.now();
    const thirtyDays = 30 * 24 * 3_600_000;
    timer.add(thirtyDays);
    await vi.advanceTimersByTimeAsync(25 * 24 * 3_600_000);
    expect(fired).toEqual([]);
    expect(timer.armed).toBe(true);
    await vi.advanceTimersByTimeAsync(5 * 24 * 3_600_000 + DUE_TIMER_SLACK_MS);
    expect(fired.map((at) => at - began)).toEqual([thirtyDays + DUE_TIMER_SLACK_MS]);
  });

  it('ignores negative, NaN and infinite delays', () => {
    const { timer } = recording();
    for (const delay of [-1, Number.NaN, Number.POSITIVE_INFINITY]) timer.add(delay);
    expect(timer.pending).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('close clears the armed timer for good: nothing fires and later adds arm nothing', async () => {
    const { timer, fired } = recording();
    timer.add(1_000);
    timer.add(2_000);
    timer.close();
    expect(vi.getTimerCount()).toBe(0);
    timer.add(500);
    expect(timer.pending).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(fired).toEqual([]);
  });
});

describe('QueuePool.dueIn', () => {
  it('ends a long claim-loop wait when a deferred row comes due, and close() leaves no timer behind', async () => {
    const pool = new QueuePool('q', 1);
    const began = performance.now();
    let woke = Number.NaN;
    const waiting = pool.changed(5_000).then(() => {
      woke = performance.now() - began;
    });
    pool.dueIn(1_000);
    await vi.advanceTimersByTimeAsync(1_000 + DUE_TIMER_SLACK_MS);
    await waiting;
    expect(woke).toBe(1_000 + DUE_TIMER_SLACK_MS);

    pool.dueIn(1_000);
    pool.close();
    expect(vi.getTimerCount()).toBe(0);
    pool.dueIn(1_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
