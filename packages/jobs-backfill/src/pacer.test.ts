import { JobsError } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { systemPaceTimer } from './pace-timer.js';
import { Pacer } from './pacer.js';

describe('Pacer', () => {
  it('waits only the rest of the interval, and nothing for a page slower than it', async () => {
    let now = 0;
    const sleeps: number[] = [];
    const pacer = new Pacer(10, {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    const signal = new AbortController().signal;
    await pacer.next(signal); // the first page of an attempt starts at once
    now += 30; // the page took 30 ms of its 100 ms
    await pacer.next(signal);
    now += 250; // this one took longer than the interval
    await pacer.next(signal);
    expect(sleeps).toEqual([70]);
  });

  it('the wall-clock pause unwinds as soon as the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    const reason = new JobsError('X_DRAINING', 'draining');
    const started = Date.now();
    const sleeping = systemPaceTimer.sleep(60_000, controller.signal);
    setTimeout(() => controller.abort(reason), 20);
    await expect(sleeping).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('an already-aborted signal without an error reason rejects X_ABORTED at once', async () => {
    const controller = new AbortController();
    controller.abort('cancelled');
    await expect(systemPaceTimer.sleep(60_000, controller.signal)).rejects.toMatchObject({
      code: 'X_ABORTED',
    });
  });
});
