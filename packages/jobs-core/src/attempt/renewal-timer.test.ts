import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RenewalTimer, startRenewalTimer } from './renewal-timer.js';

const timers: RenewalTimer[] = [];
// Fake timers (performance.now included): the windows are exact, whatever the machine's load.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  for (const timer of timers.splice(0)) timer.stop();
  vi.useRealTimers();
});

const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

function recorder() {
  const events: string[] = [];
  return {
    events,
    handlers: (renew: () => Promise<boolean>) => ({
      renew,
      onFailed: () => void events.push('failed'),
      onLost: () => void events.push('lost'),
      onRefused: () => void events.push('refused'),
    }),
  };
}

describe('startRenewalTimer', () => {
  it('keeps renewing while renewals land, reporting nothing', async () => {
    const { events, handlers } = recorder();
    let renewals = 0;
    timers.push(
      startRenewalTimer(
        10,
        1_000,
        handlers(async () => ++renewals > 0),
      ),
    );
    await sleep(80);
    expect(renewals).toBeGreaterThanOrEqual(3);
    expect(events).toEqual([]);
  });

  it('reports each failure, then the lost lease once when a whole window passes without one landing', async () => {
    const { events, handlers } = recorder();
    timers.push(
      startRenewalTimer(
        10,
        45,
        handlers(async () => {
          throw new Error('down');
        }),
      ),
    );
    await sleep(120);
    expect(events[0]).toBe('failed');
    expect(events.filter((event) => event === 'lost')).toHaveLength(1);
    expect(events.indexOf('lost')).toBeGreaterThan(0);
  });

  it('catches a renewal that hangs the same as one that throws', async () => {
    const { events, handlers } = recorder();
    timers.push(
      startRenewalTimer(
        10,
        40,
        handlers(() => new Promise<boolean>(() => undefined)),
      ),
    );
    await sleep(100);
    expect(events).toEqual(['lost']);
  });

  it('stops itself when a renewal is refused', async () => {
    const { events, handlers } = recorder();
    let renewals = 0;
    timers.push(
      startRenewalTimer(
        10,
        1_000,
        handlers(async () => {
          renewals += 1;
          return false;
        }),
      ),
    );
    await sleep(60);
    expect(events).toEqual(['refused']);
    expect(renewals).toBe(1);
  });

  it('ignores the answer of a renewal in flight at stop: a finished job never reports a lost lease', async () => {
    const { events, handlers } = recorder();
    let answer: ((landed: boolean) => void) | undefined;
    const timer = startRenewalTimer(
      10,
      1_000,
      handlers(() => new Promise<boolean>((resolve) => (answer = resolve))),
    );
    await sleep(12);
    timer.stop();
    answer?.(false);
    await sleep(40);
    expect(events).toEqual([]);
  });

  it('shares one timer among loops of one interval, each renewing on its own cadence from its start', async () => {
    const starts = vi.getTimerCount();
    const renewedAt: Record<string, number[]> = { a: [], b: [], c: [] };
    const loop = (name: string) =>
      startRenewalTimer(100, 1_000, {
        renew: async () => {
          renewedAt[name]?.push(performance.now());
          return true;
        },
        onFailed: () => undefined,
        onLost: () => undefined,
        onRefused: () => undefined,
      });
    const t0 = performance.now();
    timers.push(loop('a'));
    await sleep(30);
    const b = loop('b');
    timers.push(b);
    await sleep(30);
    const c = loop('c');
    expect(vi.getTimerCount() - starts).toBe(1);
    // c ends before its first renewal: it never renews.
    await sleep(50);
    c.stop();
    await sleep(200);
    b.stop();
    expect(renewedAt.c).toEqual([]);
    expect(renewedAt.a?.map((at) => Math.round(at - t0))).toEqual([100, 200, 300]);
    expect(renewedAt.b?.map((at) => Math.round(at - t0))).toEqual([130, 230]);
    await sleep(100);
    expect(renewedAt.a?.map((at) => Math.round(at - t0))).toEqual([100, 200, 300, 400]);
    expect(renewedAt.b).toHaveLength(2);
  });

  it('leaves no timer behind once the last loop stops', async () => {
    const starts = vi.getTimerCount();
    const loops = [1, 2, 3].map(() =>
      startRenewalTimer(50, 1_000, {
        renew: async () => true,
        onFailed: () => undefined,
        onLost: () => undefined,
        onRefused: () => undefined,
      }),
    );
    expect(vi.getTimerCount() - starts).toBe(1);
    for (const loop of loops) loop.stop();
    expect(vi.getTimerCount() - starts).toBe(0);
  });

  it('renews exactly the loops still running, each on its own cadence, whatever order loops start and stop in', async () => {
    // Starts (true) and stops (false, of the n-th running loop) 10 ms apart, then 250 ms of
    // renewals: each loop still running renews every 100 ms from its start, a stopped one never
    // again, and the shared timer goes once none is left.
    const step = fc.oneof(fc.constant<true>(true), fc.nat({ max: 7 }));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 24 }), async (steps) => {
        const timersBefore = vi.getTimerCount();
        const renewedAt = new Map<number, number[]>();
        const running: { id: number; timer: RenewalTimer }[] = [];
        const stoppedAt = new Map<number, number>();
        const startedAt = new Map<number, number>();
        let next = 0;
        for (const each of steps) {
          if (each === true) {
            const id = next++;
            renewedAt.set(id, []);
            const timer = startRenewalTimer(100, 10_000, {
              renew: async () => {
                renewedAt.get(id)?.push(performance.now());
                return true;
              },
              onFailed: () => undefined,
              onLost: () => undefined,
              onRefused: () => undefined,
            });
            startedAt.set(id, performance.now());
            running.push({ id, timer });
          } else if (running.length > 0) {
            const [gone] = running.splice(each % running.length, 1);
            gone?.timer.stop();
            if (gone) stoppedAt.set(gone.id, performance.now());
          }
          await sleep(10);
        }
        await sleep(250);
        const end = performance.now();
        for (const [id, at] of renewedAt) {
          const from = startedAt.get(id) as number;
          const until = stoppedAt.get(id) ?? end;
          const expected: number[] = [];
          for (let due = from + 100; due <= until; due += 100) expected.push(Math.round(due - from));
          // A loop stopped exactly at a due time may or may not have renewed first.
          const seen = at.map((time) => Math.round(time - from));
          expect(seen.filter((time) => time + from < until)).toEqual(
            expected.filter((time) => time + from < until),
          );
        }
        for (const { timer } of running) timer.stop();
        expect(vi.getTimerCount()).toBe(timersBefore);
      }),
      { seed: 7, numRuns: 60 },
    );
  });
});
