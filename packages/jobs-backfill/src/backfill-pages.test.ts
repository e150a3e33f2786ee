import { type JsonValue, recordingLogger } from '@x/jobs-core';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { items, pagesOver, unique } from '../test/item-pages.js';
import { backfill } from './backfill.js';

let harness: JobTestHarness | undefined;

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
