import type { BackfillRecord } from '@x/jobs-core/driver';
import { describe, expect, it } from 'vitest';
import type { BackfillDeclaration } from './backfill-registry.js';
import { gateBackfill } from './gate-backfill.js';
import { pendingBackfills } from './pending-backfills.js';

const declared = (name: string, patch: Partial<BackfillDeclaration> = {}): BackfillDeclaration => ({
  kind: 'backfill',
  name,
  checksum: 'sha256:now',
  requires: [],
  environments: null,
  counts: false,
  scoped: false,
  batch: 1000,
  rate: 5,
  queue: 'default',
  ...patch,
});

const run = (
  name: string,
  status: BackfillRecord['status'],
  startedAt: number,
  checksum = 'sha256:now',
): BackfillRecord => ({
  name,
  runId: `${name}-${startedAt}`,
  checksum,
  status,
  rowsProcessed: 0,
  cursor: null,
  startedAt,
  completedAt: status === 'completed' ? startedAt + 1 : null,
});

describe('pendingBackfills', () => {
  it('classifies each declaration: pending, failed, running, completed, excluded; lists orphans', () => {
    const report = pendingBackfills({
      environment: 'staging',
      declarations: [
        declared('never-run'),
        declared('failed-last', {}),
        declared('in-flight'),
        declared('done', { checksum: 'sha256:new' }),
        declared('prod-only', { environments: ['production'] }),
        declared('per-org', { scoped: true }),
      ],
      runs: [
        run('failed-last', 'completed', 1),
        run('failed-last', 'failed', 2),
        run('in-flight', 'failed', 1),
        run('in-flight', 'running', 2),
        run('done', 'completed', 1, 'sha256:old'),
        run('per-org:acme', 'completed', 1),
        run('renamed-away', 'completed', 1),
      ],
    });
    expect(report.environment).toBe('staging');
    expect(Object.fromEntries(report.rows.map((row) => [row.name, row.state]))).toEqual({
      'never-run': 'pending',
      'failed-last': 'failed',
      'in-flight': 'running',
      done: 'completed',
      'prod-only': 'excluded',
      'per-org': 'completed',
    });
    expect(report.pending).toEqual(['never-run', 'failed-last']);
    expect(report.orphaned).toEqual(['renamed-away']);
    expect(report.rows.find((row) => row.name === 'done')?.checksumMoved).toBe(true);
    expect(report.rows.find((row) => row.name === 'in-flight')?.latest?.status).toBe('running');
  });
});

describe('gateBackfill', () => {
  const base = {
    ledgerName: 'sweep',
    environment: 'production',
    runs: [],
    appliedMigrations: undefined,
    force: false,
  };

  it('refuses the wrong environment, a pending migration, a completed row without force', () => {
    expect(() =>
      gateBackfill({ ...base, declaration: declared('sweep', { environments: ['staging'] }) }),
    ).toThrow(expect.objectContaining({ code: 'X_BACKFILL_ENVIRONMENT' }));
    expect(() =>
      gateBackfill({
        ...base,
        declaration: declared('sweep', { requires: ['m1', 'm2'] }),
        appliedMigrations: ['m1'],
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'X_BACKFILL_MIGRATION_PENDING',
        meta: { name: 'sweep', missing: ['m2'] },
      }),
    );
    const completed = [run('sweep', 'completed', 5)];
    expect(() => gateBackfill({ ...base, declaration: declared('sweep'), runs: completed })).toThrow(
      expect.objectContaining({ code: 'X_BACKFILL_COMPLETED' }),
    );
    expect(gateBackfill({ ...base, declaration: declared('sweep'), runs: completed, force: true })).toEqual({
      unchecked: [],
    });
  });

  it('reports requires it could not check when no applied-migration list is given', () => {
    expect(gateBackfill({ ...base, declaration: declared('sweep', { requires: ['m1'] }) })).toEqual({
      unchecked: ['m1'],
    });
    expect(
      gateBackfill({
        ...base,
        declaration: declared('sweep', { requires: ['m1'] }),
        appliedMigrations: ['m1'],
      }),
    ).toEqual({ unchecked: [] });
  });
});
