import type { BackfillRecord } from '@x/jobs-core/driver';
import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'backfills';

function pass(
  name: string,
  runId: string,
  startedAt: number,
  patch: Partial<BackfillRecord> = {},
): BackfillRecord {
  return {
    name,
    runId,
    checksum: 'sha256:abc',
    status: 'running',
    rowsProcessed: 0,
    cursor: null,
    startedAt,
    completedAt: null,
    ...patch,
  };
}

/** The backfill ledger: one row per (name, runId), listed newest first. */
export const backfillCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'record then get round-trips a row; record again replaces it',
    async run(h) {
      const name = h.unique('backfill');
      const row = pass(name, 'run-1', 1_000, { cursor: { id: "o'brien", n: [1, 2] } });
      await h.backfills.record(row);
      expect(await h.backfills.get(name, 'run-1')).toEqual(row);
      const done = { ...row, status: 'completed' as const, rowsProcessed: 420, completedAt: 2_000 };
      await h.backfills.record(done);
      expect(await h.backfills.get(name, 'run-1')).toEqual(done);
      expect(await h.backfills.get(name, 'run-2')).toBeNull();
      expect(await h.backfills.list({ name })).toEqual([done]);
    },
  },
  {
    group,
    name: 'list answers newest startedAt first, filtered by name and status, up to limit',
    async run(h) {
      const name = h.unique('backfill');
      const other = h.unique('backfill-other');
      const rows = [
        pass(name, 'r1', 1_000, { status: 'completed', completedAt: 1_500 }),
        pass(name, 'r3', 3_000),
        pass(name, 'r2', 2_000, { status: 'failed' }),
        pass(other, 'r1', 9_000),
      ];
      for (const row of rows) await h.backfills.record(row);
      expect((await h.backfills.list({ name })).map((row) => row.runId)).toEqual(['r3', 'r2', 'r1']);
      expect((await h.backfills.list({ name, status: 'failed' })).map((row) => row.runId)).toEqual(['r2']);
      expect((await h.backfills.list({ name, limit: 2 })).map((row) => row.runId)).toEqual(['r3', 'r2']);
      const all = await h.backfills.list({ limit: 1000 });
      expect(all.filter((row) => row.name === name || row.name === other)).toHaveLength(4);
    },
  },
];
