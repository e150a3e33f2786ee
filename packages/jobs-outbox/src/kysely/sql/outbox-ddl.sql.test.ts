import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolveOutboxTable } from '../outbox-table.js';
import { outboxMigrations } from './outbox-ddl.sql.js';

/** Released migrations are append-only: editing one changes its hash here and fails review on purpose. */
const RELEASED = ['c2ab496350bd66e33ab5b8d008c04a251ed681a07fd795993d27af90aa3240c3'];

describe('outbox migrations', () => {
  it('keeps every released migration byte for byte', () => {
    const migrations = outboxMigrations(resolveOutboxTable({ schema: 'app', table: 'x_jobs_outbox' }));
    const hashes = migrations.map((statements) =>
      createHash('sha256').update(statements.join(';\n')).digest('hex'),
    );
    expect(hashes.slice(0, RELEASED.length)).toEqual(RELEASED);
  });
});
