import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackendClock, offsetFromSamples, WALL_STEP_TOLERANCE_MS } from './backend-clock.js';

const TEN_MINUTES = 600_000;

describe('offsetFromSamples', () => {
  it('keeps the preferred (wall) offset when every sample allows it', () => {
    expect(offsetFromSamples([{ sent: 10, server: 1_013, received: 18 }], 1_000)).toBe(1_000);
  });

  it('takes the nearest bound when the wall clock is off, and intersects several samples', () => {
    // Backend − monotonic lies in [459, 501] and [485, 491]: a wall offset of 0 is clamped to 485.
    const samples = [
      { sent: 1_000, server: 1_500, received: 1_040 },
      { sent: 2_000, server: 2_490, received: 2_004 },
    ];
    expect(offsetFromSamples(samples, 0)).toBe(485);
    expect(offsetFromSamples(samples, 10_000)).toBe(491);
  });

  it('falls back to the last midpoint when the bounds disagree, and to the preferred offset without samples', () => {
    const stepped = [
      { sent: 1_000, server: 1_000, received: 1_002 },
      { sent: 2_000, server: 3_000, received: 2_002 },
    ];
    expect(offsetFromSamples(stepped, 0)).toBe(999);
    expect(offsetFromSamples([], 42)).toBe(42);
  });
});

describe('BackendClock', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers the wall clock before the first measurement, and the backend clock after it', async () => {
    const ahead = new BackendClock({ read: async () => performance.timeOrigin + performance.now() + 5_000 });
    expect(Math.abs(ahead.now() - Date.now())).toBeLessThan(50);
    await ahead.sync();
    expect(Math.abs(ahead.now() - (Date.now() + 5_000))).toBeLessThan(50);
    expect(Math.abs(ahead.offsetMs - 5_000)).toBeLessThan(50);
  });

  /** A clock over a backend that shares this host's real clock, counting its reads. */
  function countingClock() {
    const counter = { reads: 0 };
    const clock = new BackendClock({
      read: async () => {
        counter.reads += 1;
        return performance.timeOrigin + performance.now();
      },
    });
    return { clock, counter };
  }

  /** Moves `Date.now()` (not `performance.now()`) by `ms`, as a wall-clock step does; answers the real one. */
  function stepWallClock(ms: number): () => number {
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
    return realNow;
  }

  it.each([TEN_MINUTES, -TEN_MINUTES])(
    'a %d ms step of the wall clock moves now() by nothing, and measures again at once',
    async (step) => {
      const { clock, counter } = countingClock();
      await clock.sync();
      const before = clock.now();
      expect(Math.abs(before - Date.now())).toBeLessThan(50);
      const realNow = stepWallClock(step);
      const readsBefore = counter.reads;
      expect(Math.abs(clock.now() - before)).toBeLessThan(50);
      // The step was noticed: that now() began a measurement, whose result still ignores the step.
      expect(counter.reads).toBe(readsBefore + 1);
      await clock.sync();
      expect(Math.abs(clock.now() - realNow())).toBeLessThan(50);
    },
  );

  it('does not measure again for a wall clock that only slews', async () => {
    const { clock, counter } = countingClock();
    await clock.sync();
    stepWallClock(WALL_STEP_TOLERANCE_MS / 2);
    const readsBefore = counter.reads;
    clock.now();
    expect(counter.reads).toBe(readsBefore);
  });

  it('keeps the last measurement when one fails', async () => {
    let fail = false;
    const clock = new BackendClock({
      read: async () => {
        if (fail) throw new Error('down');
        return performance.timeOrigin + performance.now() + 2_000;
      },
    });
    await clock.sync();
    fail = true;
    await expect(clock.sync()).rejects.toThrow('down');
    expect(Math.abs(clock.now() - (Date.now() + 2_000))).toBeLessThan(50);
  });
});
