import { job, publishEvent } from '@x/jobs-core';
import { virtualClock } from '@x/jobs-driver-memory';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { task } from '@x/jobs-scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { purge } from './purge.js';
import { DEFAULT_PURGE_CRON, purgeSchedule } from './purge-schedule.js';
import type { PurgeTarget } from './purge-target.js';
import { queuePurgeTargets } from './queue-purge-targets.js';

let harness: JobTestHarness | undefined;
let counter = 0;
const unique = (label: string): string => `${label}-${process.pid}-${++counter}`;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A store whose purgeExpired records the clock it was given. */
function store(name: string, removed: number, seen: number[], fail?: { once: boolean }): PurgeTarget {
  return {
    name,
    purgeExpired(nowMs) {
      seen.push(nowMs);
      if (fail?.once) {
        fail.once = false;
        throw new Error('connection reset');
      }
      return removed;
    },
  };
}

describe('purge()', () => {
  it('one step per target, every target given the one clock reading of the pass', async () => {
    const seen: number[] = [];
    const sweep = purge({
      name: unique('purge'),
      targets: () => [store('sessions', 3, seen), store('rate_limits', 40, seen)],
    });
    harness = createJobTestHarness({ jobs: [sweep], clock: virtualClock(1_700_000_000_000) });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.result).toEqual({
      name: sweep.name,
      nowMs: 1_700_000_000_000,
      removed: { sessions: 3, rate_limits: 40 },
      total: 43,
    });
    expect(row?.steps.map((step) => step.name)).toEqual(['clock', 'purge:sessions', 'purge:rate_limits']);
    expect(seen).toEqual([1_700_000_000_000, 1_700_000_000_000]);
  });

  it('a retry resumes at the target it stopped on, with the first attempt’s clock reading', async () => {
    const seen: number[] = [];
    const flaky = { once: true };
    const sweep = purge({
      name: unique('purge-retry'),
      retry: { attempts: 3, backoff: 'fixed', delay: 60_000, jitter: false },
      targets: () => [store('first', 1, seen), store('second', 2, seen, flaky)],
    });
    harness = createJobTestHarness({ jobs: [sweep], clock: virtualClock(2_000_000) });
    const { id } = await harness.run(sweep, {});
    const trace = await harness.drain();
    expect((await harness.job(id))?.attempts).toBe(2);
    expect(trace.steps['purge:first']).toEqual({ executions: 1, replays: 1 });
    expect(trace.steps['purge:second']?.executions).toBe(2);
    // The retry ran a minute later on the clock, and still purged against the pass's one reading.
    expect(seen).toEqual([2_000_000, 2_000_000, 2_000_000]);
  });

  it('two targets under one name are refused before the first delete', async () => {
    const seen: number[] = [];
    const sweep = purge({
      name: unique('purge-dup'),
      targets: () => [store('cache', 1, seen), store('cache', 2, seen)],
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    const row = await harness.job(id);
    expect(row).toMatchObject({ state: 'dead', attempts: 1 });
    expect(row?.lastError?.code).toBe('X_PURGE_TARGET_DUPLICATE');
    expect(seen).toEqual([]);
    expect(() => purge({ name: unique('purge-dup-list'), targets: 'nope' as never })).toThrow(
      expect.objectContaining({ code: 'X_PURGE_TARGET_INVALID' }),
    );
  });

  it('a target answering something other than a count is X_PURGE_TARGET_INVALID', async () => {
    const sweep = purge({
      name: unique('purge-bad-count'),
      targets: [{ name: 'odd', purgeExpired: () => -1 }],
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    expect((await harness.job(id))?.lastError?.code).toBe('X_PURGE_TARGET_INVALID');
  });

  it('the queue’s own retention as targets: done rows past retention, expired events', async () => {
    const noop = job({
      name: unique('noop'),
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => `n${n}`,
      tenant: 'none',
      run: () => 'ok',
    });
    const sweep = purge({
      name: unique('purge-queue'),
      targets: () => queuePurgeTargets({ doneRetention: '1d' }),
    });
    harness = createJobTestHarness({ jobs: [noop, sweep], clock: virtualClock(3_000_000_000) });
    const old = await harness.run(noop, { n: 1 });
    await harness.drain();
    await publishEvent('order.paid', { id: 1 }, { ttl: '1h', driver: harness.driver });
    harness.clock.advance('2d');
    const fresh = await harness.run(noop, { n: 2 });
    await harness.drain();
    await publishEvent('order.paid', { id: 2 }, { ttl: '1h', driver: harness.driver });

    const { id } = await harness.run(sweep, {});
    await harness.drain();
    expect((await harness.job(id))?.result).toMatchObject({
      removed: { 'x-jobs.done': 1, 'x-jobs.events': 1 },
    });
    expect(await harness.job(old.id)).toBeNull();
    expect((await harness.job(fresh.id))?.state).toBe('done');
  });

  it('purgeSchedule is a task() declaration firing the sweep hourly', async () => {
    const sweep = purge({ name: unique('purge-hourly'), targets: [] });
    const hourly = task(purgeSchedule(sweep));
    expect(hourly.describe()).toMatchObject({
      name: `${sweep.name}.hourly`,
      cron: DEFAULT_PURGE_CRON,
      tz: 'UTC',
      catchUp: 'skip',
      jobs: [sweep.name],
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const [fired] = await hourly.enqueue();
    await harness.drain();
    expect((await harness.job(fired?.id ?? ''))?.result).toMatchObject({ total: 0 });
  });
});
