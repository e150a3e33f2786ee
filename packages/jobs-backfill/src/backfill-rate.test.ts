import { recordingLogger } from '@x/jobs-core';
import { virtualClock } from '@x/jobs-driver-memory';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { items, pagesOver, unique, virtualTimer } from '../test/item-pages.js';
import { backfill } from './backfill.js';

let harness: JobTestHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('backfill() rate', () => {
  it('spaces page starts 1000/rate ms apart on the injected clock, the pause inside the step', async () => {
    const sleeps: number[] = [];
    const starts: number[] = [];
    let h: JobTestHarness | undefined;
    const sweep = backfill({
      name: unique('paced'),
      batch: 2,
      rate: 4,
      tenant: 'none',
      pages: pagesOver(items(10)),
      handle: () => {
        starts.push(h?.clock.now() ?? 0);
      },
      timer: virtualTimer(() => h, sleeps),
      logger: recordingLogger(),
    });
    h = harness = createJobTestHarness({ jobs: [sweep], clock: virtualClock(1_000_000) });
    await harness.run(sweep, {});
    await harness.drain();
    expect(starts).toHaveLength(5);
    expect(starts.slice(1).map((start, i) => start - (starts[i] ?? 0))).toEqual([250, 250, 250, 250]);
    expect(sleeps).toEqual([250, 250, 250, 250]);
  });

  it('a resumed attempt re-pays no pause for the pages it replays', async () => {
    const sleeps: number[] = [];
    let h: JobTestHarness | undefined;
    let failOnce = true;
    const sweep = backfill({
      name: unique('repay'),
      batch: 1,
      rate: 2,
      tenant: 'none',
      retry: { attempts: 2, backoff: 'fixed', delay: 1000, jitter: false },
      pages: pagesOver(items(5)),
      handle: ({ index }) => {
        if (index === 3 && failOnce) {
          failOnce = false;
          throw new Error('once');
        }
      },
      timer: virtualTimer(() => h, sleeps),
      logger: recordingLogger(),
    });
    h = harness = createJobTestHarness({ jobs: [sweep], clock: virtualClock(5_000_000) });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    expect((await harness.job(id))?.state).toBe('done');
    // Attempt 1: pages 0-3 (three pauses). Attempt 2: replays 0-2, runs 3 at once, pauses before 4.
    expect(sleeps).toEqual([500, 500, 500, 500]);
  });

  it('refuses a rate or batch that is not usable, at declaration', () => {
    const base = { tenant: 'none' as const, pages: pagesOver([]), handle: () => undefined };
    for (const rate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => backfill({ ...base, name: unique('rate'), rate })).toThrow(
        expect.objectContaining({ code: 'X_BACKFILL_DECLARATION_INVALID', meta: { field: 'rate' } }),
      );
    }
    for (const batch of [0, 1.5, Number.NaN, -3]) {
      expect(() => backfill({ ...base, name: unique('batch'), batch })).toThrow(
        expect.objectContaining({ code: 'X_BACKFILL_DECLARATION_INVALID', meta: { field: 'batch' } }),
      );
    }
  });
});
