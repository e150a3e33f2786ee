import { type JsonValue, recordingLogger, setJobDriver } from '@x/jobs-core';
import { virtualClock } from '@x/jobs-driver-memory';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backfill } from './backfill.js';
import type { BackfillPage } from './backfill-definition.js';
import type { PaceTimer } from './pace-timer.js';

interface Item {
  readonly id: number;
}

const items = (count: number): Item[] => Array.from({ length: count }, (_, i) => ({ id: i + 1 }));

/** Keyset pages over an in-memory table, recording every cursor asked for. */
function pagesOver(table: readonly Item[], asked: (JsonValue | null)[] = []) {
  return async ({
    cursor,
    batch,
  }: {
    cursor: JsonValue | null;
    batch: number;
  }): Promise<BackfillPage<Item>> => {
    asked.push(cursor);
    const after = typeof cursor === 'number' ? cursor : 0;
    const rows = table.filter((row) => row.id > after).slice(0, batch);
    const last = rows.at(-1);
    const more = last !== undefined && table.some((row) => row.id > last.id);
    return { rows, next: more ? last.id : null };
  };
}

/** A timer on the harness's virtual clock: a sleep moves the clock and is recorded. */
function virtualTimer(h: JobTestHarness, sleeps: number[]): PaceTimer {
  return {
    now: () => h.clock.now(),
    async sleep(ms) {
      sleeps.push(ms);
      h.clock.set(h.clock.now() + ms);
    },
  };
}

let harness: JobTestHarness | undefined;
let counter = 0;
const unique = (label: string): string => `${label}-${process.pid}-${++counter}`;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('backfill() pages', () => {
  it('handles every row, one batch:<n> step per page checkpointed as { cursor, rows }, never the rows', async () => {
    const handled: number[][] = [];
    const sweep = backfill({
      name: unique('sweep'),
      batch: 10,
      rate: 1000,
      tenant: 'none',
      pages: pagesOver(items(25)),
      handle: ({ rows, signal }) => {
        expect(signal).toBeInstanceOf(AbortSignal);
        handled.push(rows.map((row) => row.id));
      },
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.state).toBe('done');
    expect(row?.result).toEqual({ name: sweep.name, batches: 3, rows: 25, skipped: false, cursor: 20 });
    expect(handled.flat()).toEqual(items(25).map((item) => item.id));
    expect(row?.steps.map((step) => [step.name, step.output])).toEqual([
      ['batch:0', { cursor: 10, rows: 10 }],
      ['batch:1', { cursor: 20, rows: 10 }],
      ['batch:2', { cursor: null, rows: 5 }],
    ]);
  });

  it('a retry replays the stored pages and reopens at the cursor the last one left', async () => {
    const asked: (JsonValue | null)[] = [];
    let failOnce = true;
    const sweep = backfill({
      name: unique('resume'),
      batch: 4,
      rate: 1000,
      tenant: 'none',
      retry: { attempts: 3, backoff: 'fixed', delay: 1000, jitter: false },
      pages: pagesOver(items(12), asked),
      handle: ({ index }) => {
        if (index === 2 && failOnce) {
          failOnce = false;
          throw new Error('database hiccup');
        }
      },
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id } = await harness.run(sweep, {});
    const trace = await harness.drain();
    expect((await harness.job(id))?.state).toBe('done');
    expect((await harness.job(id))?.attempts).toBe(2);
    // Pages 0 and 1 were read once; the retry asked for page 2's cursor again, never for page 0's.
    expect(asked).toEqual([null, 4, 8, 8]);
    expect(trace.steps['batch:0']).toEqual({ executions: 1, replays: 1 });
    expect(trace.steps['batch:1']).toEqual({ executions: 1, replays: 1 });
    expect(trace.steps['batch:2']?.executions).toBe(2);
  });

  it('an empty source is one batch with no rows, and handle is not called', async () => {
    let calls = 0;
    const sweep = backfill({
      name: unique('empty'),
      tenant: 'none',
      pages: async () => ({ rows: [], next: null }),
      handle: () => {
        calls += 1;
      },
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    expect((await harness.job(id))?.result).toMatchObject({ batches: 1, rows: 0 });
    expect(calls).toBe(0);
  });

  it('a page that is not { rows, next } dead-letters with X_BACKFILL_SOURCE_INVALID', async () => {
    const sweep = backfill({
      name: unique('bad-page'),
      tenant: 'none',
      pages: async () => ({ rows: 'nope' }) as never,
      handle: () => undefined,
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const { id } = await harness.run(sweep, {});
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.state).toBe('dead');
    expect(row?.lastError?.code).toBe('X_BACKFILL_SOURCE_INVALID');
    expect(row?.attempts).toBe(1);
  });

  it('the idempotency key is the name: enqueueing a live pass again is that pass', async () => {
    const sweep = backfill({
      name: unique('live'),
      tenant: 'none',
      pages: pagesOver(items(3)),
      handle: () => undefined,
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [sweep] });
    const first = await sweep.enqueue({});
    const again = await sweep.enqueue({ force: true });
    expect(again).toMatchObject({ id: first.id, deduped: true });
  });
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
      timer: {
        now: () => h?.clock.now() ?? 0,
        sleep: (ms, signal) =>
          h === undefined ? Promise.resolve() : virtualTimer(h, sleeps).sleep(ms, signal),
      },
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
      timer: {
        now: () => h?.clock.now() ?? 0,
        sleep: (ms, signal) =>
          h === undefined ? Promise.resolve() : virtualTimer(h, sleeps).sleep(ms, signal),
      },
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

describe('backfill() declaration', () => {
  it('refuses both or neither of pages and source, an input without scope, a missing name', () => {
    const handle = () => undefined;
    expect(() =>
      backfill({
        name: unique('both'),
        tenant: 'none',
        handle,
        pages: pagesOver([]),
        source: { query: () => ({}) as never, key: 'id' },
      } as never),
    ).toThrow(expect.objectContaining({ code: 'X_BACKFILL_SOURCE_INVALID' }));
    expect(() => backfill({ name: unique('neither'), tenant: 'none', handle } as never)).toThrow(
      expect.objectContaining({ code: 'X_BACKFILL_SOURCE_INVALID' }),
    );
    expect(() =>
      backfill({
        name: unique('unscoped'),
        tenant: 'none',
        handle,
        pages: pagesOver([]),
        input: z.object({ orgId: z.string() }),
      }),
    ).toThrow(expect.objectContaining({ code: 'X_BACKFILL_DECLARATION_INVALID', meta: { field: 'scope' } }));
    expect(() => backfill({ tenant: 'none', handle, pages: pagesOver([]) } as never)).toThrow(
      expect.objectContaining({ code: 'X_BACKFILL_DECLARATION_INVALID', meta: { field: 'name' } }),
    );
    const name = unique('taken');
    backfill({ name, tenant: 'none', handle, pages: pagesOver([]) });
    expect(() => backfill({ name, tenant: 'none', handle, pages: pagesOver([]) })).toThrow(
      expect.objectContaining({ code: 'X_JOB_DUPLICATE' }),
    );
  });

  it('a scoped backfill is one pass per scope, under the scope input’s tenant', async () => {
    const seen: string[] = [];
    const perOrg = backfill({
      name: unique('per-org'),
      tenant: ({ orgId }) => orgId,
      input: z.object({ orgId: z.string() }),
      scope: ({ orgId }) => orgId,
      pages: async ({ input }) => ({ rows: [input.orgId], next: null }),
      handle: ({ rows, ctx }) => {
        seen.push(`${rows[0]}@${ctx.actor.orgId}`);
      },
      logger: recordingLogger(),
    });
    harness = createJobTestHarness({ jobs: [perOrg] });
    const acme = await harness.run(perOrg, { input: { orgId: 'acme' } });
    const globex = await harness.run(perOrg, { input: { orgId: 'globex' } });
    expect(globex.id).not.toBe(acme.id);
    await harness.drain();
    expect(seen.sort()).toEqual(['acme@acme', 'globex@globex']);
    const rows = await harness.driver.backfills?.list({});
    expect(rows?.map((row) => row.name).sort()).toEqual([`${perOrg.name}:acme`, `${perOrg.name}:globex`]);
    expect((await harness.job(acme.id))?.result).toMatchObject({ name: `${perOrg.name}:acme`, rows: 1 });
  });
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
