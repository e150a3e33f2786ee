import { describe, expect, it } from 'vitest';
import type { JobDriver } from '../driver/job-driver.js';
import { refuseAfterClose } from './refuse-after-close.js';

/** A fake driver: only the members these tests call are real. */
function fakeDriver(log: string[], release: Promise<void>) {
  return {
    name: 'fake',
    now: () => 7,
    steps: { load: async () => [] },
    stats: async () => {
      await release;
      log.push('stats done');
      return [];
    },
    claim: () => {
      throw new Error('sync throw');
    },
    close: async () => void log.push('closed'),
  } as unknown as JobDriver;
}

describe('refuseAfterClose', () => {
  it('waits for calls made before close, closes once, then refuses every call with X_DRIVER_CLOSED', async () => {
    const log: string[] = [];
    let open!: () => void;
    const driver = refuseAfterClose(fakeDriver(log, new Promise<void>((resolve) => (open = resolve))));
    const running = driver.stats();
    const closing = driver.close();
    expect(driver.close()).toBe(closing);
    await expect(driver.steps.load('r')).rejects.toMatchObject({
      code: 'X_DRIVER_CLOSED',
      meta: { driver: 'fake', operation: 'steps.load' },
    });
    expect(log).toEqual([]);
    open();
    await closing;
    await running;
    expect(log).toEqual(['stats done', 'closed']);
    await expect(driver.stats()).rejects.toMatchObject({ code: 'X_DRIVER_CLOSED' });
    expect(driver.now()).toBe(7);
  });

  it('answers a synchronous throw as a rejection, and close still proceeds', async () => {
    const log: string[] = [];
    const driver = refuseAfterClose(fakeDriver(log, Promise.resolve()));
    const claim = driver.claim({ queues: ['q'], limit: 1, workerId: 'w', visibilityTimeoutMs: 1 });
    await expect(claim).rejects.toThrow('sync throw');
    await driver.close();
    expect(log).toEqual(['closed']);
  });

  it('lifts a value answered synchronously into a promise, refused after close like any other', async () => {
    const log: string[] = [];
    const sync = { ...fakeDriver(log, Promise.resolve()), heartbeat: (id: string) => id === 'held' };
    const driver = refuseAfterClose(sync as unknown as JobDriver);
    const answer = driver.heartbeat('held', { workerId: 'w', token: 't' }, 1);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe(true);
    // Nothing of it is in flight: close runs the driver's own close at once.
    await driver.close();
    expect(log).toEqual(['closed']);
    await expect(driver.heartbeat('held', { workerId: 'w', token: 't' }, 1)).rejects.toMatchObject({
      code: 'X_DRIVER_CLOSED',
      meta: { operation: 'heartbeat' },
    });
  });

  it('answers every synchronous value as a promise of that value: booleans, null, nothing, objects', async () => {
    const answers: unknown[] = [true, false, null, undefined, 0, '', { n: 1 }, [1]];
    let next = 0;
    const sync = { ...fakeDriver([], Promise.resolve()), heartbeat: () => answers[next++] };
    const driver = refuseAfterClose(sync as unknown as JobDriver);
    const lifted: unknown[] = [];
    for (const _ of answers) {
      const answer = driver.heartbeat('held', { workerId: 'w', token: 't' }, 1);
      expect(answer).toBeInstanceOf(Promise);
      lifted.push(await answer);
    }
    expect(lifted).toEqual(answers);
    expect(lifted[6], 'an object answered is the object itself').toBe(answers[6]);
  });
});
