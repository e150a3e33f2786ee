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
});
