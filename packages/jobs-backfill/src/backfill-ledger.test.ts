import { recordingLogger, setJobDriver } from '@x/jobs-core';
import { virtualClock } from '@x/jobs-driver-memory';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { items, pagesOver, unique } from '../test/item-pages.js';
import { backfill } from './backfill.js';

let harness: JobTestHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('backfill() count and environments', () => {
  it('a source that runs out while count() still matches dead-letters X_BACKFILL_STALLED at once', async () => {
    const sweep = backfill({
      name: unique('stalled'),
      tenant: 'none',
      pages: pagesOver(items(3)),
      handle: () => undefined,
      count: () => 2,
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id, runId } = await harness.run(sweep, {});
    await harness.drain();
    const row = await harness.job(id);
    expect(row).toMatchObject({ state: 'dead', attempts: 1, stopReason: 'terminal' });
    expect(row?.lastError?.code).toBe('X_BACKFILL_STALLED');
    expect(await harness.driver.backfills?.get(sweep.name, runId)).toMatchObject({
      status: 'failed',
      rowsProcessed: 3,
    });
  });

  it('a count that is not a non-negative integer is X_BACKFILL_COUNT_INVALID, never a pass', async () => {
    const sweep = backfill({
      name: unique('nan-count'),
      tenant: 'none',
      pages: pagesOver(items(1)),
      handle: () => undefined,
      count: () => Number.NaN,
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    expect((await harness.job(id))?.lastError?.code).toBe('X_BACKFILL_COUNT_INVALID');
  });

  it('a count of zero after the last batch completes the pass', async () => {
    const sweep = backfill({
      name: unique('converged'),
      tenant: 'none',
      pages: pagesOver(items(2)),
      handle: () => undefined,
      count: async () => 0,
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    expect((await harness.job(id))?.state).toBe('done');
  });

  it('a pass outside its environments dead-letters X_BACKFILL_ENVIRONMENT before any page', async () => {
    let read = 0;
    const sweep = backfill({
      name: unique('prod-only'),
      tenant: 'none',
      environments: ['production'],
      pages: async () => {
        read += 1;
        return { rows: [], next: null };
      },
      handle: () => undefined,
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const previous = process.env.X_JOBS_ENVIRONMENT;
    process.env.X_JOBS_ENVIRONMENT = 'staging';
    try {
      const { id } = await harness.run(sweep, {});
      await harness.drain();
      expect((await harness.job(id))?.lastError?.code).toBe('X_BACKFILL_ENVIRONMENT');
      expect(read).toBe(0);
    } finally {
      if (previous === undefined) delete process.env.X_JOBS_ENVIRONMENT;
      else process.env.X_JOBS_ENVIRONMENT = previous;
    }
  });
});

describe('backfill() ledger', () => {
  it('a completed row makes the next pass a no-op; force sweeps again into a new row', async () => {
    let handled = 0;
    const sweep = backfill({
      name: unique('ledger'),
      tenant: 'none',
      pages: pagesOver(items(3)),
      handle: ({ rows }) => {
        handled += rows.length;
      },
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const first = await harness.run(sweep, {});
    await harness.drain();
    expect(await harness.driver.backfills?.get(sweep.name, first.runId)).toMatchObject({
      status: 'completed',
      rowsProcessed: 3,
      cursor: null,
    });

    const again = await harness.run(sweep, {});
    expect(again.deduped).toBe(false);
    await harness.drain();
    expect((await harness.job(again.id))?.result).toEqual({
      name: sweep.name,
      batches: 0,
      rows: 0,
      skipped: true,
      previousRunId: first.runId,
      cursor: null,
    });
    expect(handled).toBe(3);
    expect(await harness.driver.backfills?.get(sweep.name, again.runId)).toBeNull();

    const forced = await harness.run(sweep, { force: true });
    await harness.drain();
    expect(handled).toBe(6);
    const rows = await harness.driver.backfills?.list({ name: sweep.name });
    expect(rows?.map((row) => [row.runId, row.status])).toEqual(
      expect.arrayContaining([
        [first.runId, 'completed'],
        [forced.runId, 'completed'],
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it('a running or failed row never blocks; a retry adopts its own row and keeps its startedAt', async () => {
    let failOnce = true;
    const sweep = backfill({
      name: unique('adopt'),
      batch: 1,
      rate: 1000,
      tenant: 'none',
      retry: { attempts: 2, backoff: 'fixed', delay: 60_000, jitter: false },
      pages: pagesOver(items(2)),
      handle: ({ index }) => {
        if (index === 1 && failOnce) {
          failOnce = false;
          throw new Error('once');
        }
      },
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep], clock: virtualClock(10_000_000) });
    const ledger = harness.driver.backfills;
    await ledger?.record({
      name: sweep.name,
      runId: 'someone-else',
      checksum: sweep.describe().name,
      status: 'failed',
      rowsProcessed: 0,
      cursor: null,
      startedAt: 1,
      completedAt: null,
    });
    const { id, runId } = await harness.run(sweep, {});
    await harness.worker.runDue();
    expect(await ledger?.get(sweep.name, runId)).toMatchObject({
      status: 'failed',
      rowsProcessed: 1,
      cursor: 1,
      startedAt: 10_000_000,
    });
    await harness.drain(); // the retry, a minute later on the clock
    expect((await harness.job(id))?.state).toBe('done');
    expect(await ledger?.get(sweep.name, runId)).toMatchObject({
      status: 'completed',
      rowsProcessed: 2,
      startedAt: 10_000_000,
      completedAt: 10_060_000,
    });
  });

  it('a checksum that moved since the newest row warns and runs', async () => {
    const logger = recordingLogger();
    const sweep = backfill({
      name: unique('moved'),
      tenant: 'none',
      pages: pagesOver(items(1)),
      handle: () => undefined,
      logger,
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    await harness.driver.backfills?.record({
      name: sweep.name,
      runId: 'old-run',
      checksum: 'sha256:old',
      status: 'completed',
      rowsProcessed: 9,
      cursor: null,
      startedAt: 1,
      completedAt: 2,
    });
    const { id } = await harness.run(sweep, { force: true });
    await harness.drain();
    expect((await harness.job(id))?.result).toMatchObject({ skipped: false, rows: 1 });
    expect(logger.events).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        event: 'backfill.checksum.moved',
        fields: expect.objectContaining({ previous: 'sha256:old', previousRunId: 'old-run' }),
      }),
    );
  });

  it('a driver without a ledger runs the pass anyway, with no bookkeeping', async () => {
    let handled = 0;
    const sweep = backfill({
      name: unique('no-ledger'),
      tenant: 'none',
      pages: pagesOver(items(4)),
      handle: ({ rows }) => {
        handled += rows.length;
      },
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { backfills: _ledger, ...withoutLedger } = harness.driver;
    setJobDriver(withoutLedger);
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    expect((await harness.job(id))?.result).toMatchObject({ rows: 4, skipped: false });
    expect(handled).toBe(4);
    expect(await harness.driver.backfills?.list({})).toEqual([]);
  });
});
