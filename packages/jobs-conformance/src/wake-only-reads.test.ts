import { awaitResult, type JobDetail, type JobDriver } from '@x/jobs-core';
import type { SettledJobs } from '@x/jobs-core/driver';
import { describe, expect, it } from 'vitest';
import { wakeOnlyReads } from './wake-only-reads.js';

/**
 * A driver with one row and a settle wake the test fires by hand: what wakeOnlyReads wraps.
 * `gate`, when set, holds every read until it resolves (a read in flight).
 */
function handDriver() {
  let state: JobDetail['state'] = 'running';
  const listeners = new Set<(jobs: SettledJobs) => void>();
  const reads: string[] = [];
  let gate: Promise<void> | undefined;
  const row = (id: string) =>
    ({ id, queue: 'q', name: 'n', state, result: { ok: 1 } }) as unknown as JobDetail;
  const driver = {
    name: 'hand',
    introspect: {
      async get(id: string) {
        reads.push(id);
        await gate;
        return id === 'gone' ? null : row(id);
      },
    },
    wake: {
      subscribe: () => () => {},
      subscribeSettled(listener: (jobs: SettledJobs) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  } as unknown as JobDriver;
  return {
    driver,
    reads,
    finish: () => {
      state = 'done';
    },
    fire: (jobs: SettledJobs) => {
      for (const listener of [...listeners]) listener(jobs);
    },
    hold(): () => void {
      let open!: () => void;
      gate = new Promise((resolve) => {
        open = resolve;
      });
      return () => {
        gate = undefined;
        open();
      };
    },
  };
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe('wakeOnlyReads', () => {
  it('answers a finished row only to the read a settle wake caused; awaitResult ends on it', async () => {
    const hand = handDriver();
    const view = wakeOnlyReads(hand.driver);
    const waiting = awaitResult('a', { driver: view.driver, poll: '10ms', timeout: '5s' });
    hand.finish();
    // Polls keep reading the finished row and are answered null.
    while (view.missedReads < 3) await tick();
    hand.fire(['a']);
    expect(await waiting).toEqual({ ok: 1 });
    expect(view.wakeReads).toBe(1);
  });

  it('a wake no listener reads on is lost: later reads still miss the finished row', async () => {
    const hand = handDriver();
    const view = wakeOnlyReads(hand.driver);
    const unsubscribe = view.driver.wake!.subscribeSettled!(() => {});
    hand.finish();
    hand.fire(['a']);
    expect(await view.driver.introspect!.get('a')).toBeNull();
    expect(view).toMatchObject({ wakeReads: 0, missedReads: 1 });
    unsubscribe();
  });

  it('a wake heard while a read is in flight causes the read right after it, not a later one', async () => {
    const hand = handDriver();
    const view = wakeOnlyReads(hand.driver);
    const get = view.driver.introspect!.get;
    const unsubscribe = view.driver.wake!.subscribeSettled!(() => {});
    const release = hand.hold();
    const inFlight = get('a');
    hand.finish();
    hand.fire(['a']);
    release();
    expect(await inFlight, 'the read sent before the wake').toBeNull();
    expect((await get('a'))?.state, 'the read right after it').toBe('done');
    const release2 = hand.hold();
    const second = get('a');
    hand.fire(['a']);
    release2();
    expect(await second).toBeNull();
    await tick();
    expect(await get('a'), 'a read after a timer ran').toBeNull();
    unsubscribe();
  });

  it('a bare marker covers every row read through the view; a live or missing row reads as it is', async () => {
    const hand = handDriver();
    const view = wakeOnlyReads(hand.driver);
    const get = view.driver.introspect!.get;
    expect((await get('a'))?.state).toBe('running');
    expect(await get('gone')).toBeNull();
    hand.finish();
    let read: Promise<JobDetail | null> | undefined;
    const unsubscribe = view.driver.wake!.subscribeSettled!((jobs) => {
      expect(jobs).toBeNull();
      read = get('a');
    });
    hand.fire(null);
    expect((await read)?.state).toBe('done');
    expect(view.driver.name, 'everything else is the driver').toBe('hand');
    unsubscribe();
  });

  it('refuses a driver without introspection or a settle wake', () => {
    const bare = { name: 'bare' } as unknown as JobDriver;
    expect(() => wakeOnlyReads(bare)).toThrow(/introspect and wake.subscribeSettled/);
  });
});
