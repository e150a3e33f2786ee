import { describe, expect, it } from 'vitest';
import { migrationChecksum } from './migration-checksum.js';
import { LATEST_MIGRATION_VERSION, MIGRATIONS } from './migration-list.js';

/**
 * The checksum of every released migration. A released migration is never edited: a database
 * that applied it would refuse the new release (X_PG_MIGRATION_CHECKSUM_MISMATCH). Change the
 * schema by appending a migration and its line here.
 */
const RELEASED: Readonly<Record<number, string>> = {
  1: '169b04b1e03a27454367cdbf021de8ddeeb7803899a967bc5905c2cbc3a5d134',
  2: '581e009ced7bfc39cad0bef87c488dcf137159e41949f75ae5809de99afaf161',
  3: '81590a1bb1fa5d66db83018250afbdba134867f056d4bbfb1534f60405f7cbd1',
  4: '31e47f540d3860bf99dc5c77a0f42d311895be90ec02a8d778512e5db0c26b91',
  5: '469a15793783bdb5a7cbb301039f3046a475363a3c8a3d8ce397ec56c63550f0',
  6: '204823aabfc9896181d58be112c126a69e175f4b8c32965781f03139e236135b',
  7: 'fd2b426e91800798476d3284f26e1c9130ce34a5b5907a4fe967dab758532a0a',
};

describe('released migrations', () => {
  it('are numbered 1, 2, 3, … with no gap', () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
    expect(LATEST_MIGRATION_VERSION).toBe(MIGRATIONS.length);
  });

  it('are unchanged since release (append a new one instead of editing)', () => {
    for (const migration of MIGRATIONS) {
      expect(migrationChecksum(migration), `migration ${migration.version} (${migration.name})`).toBe(
        RELEASED[migration.version],
      );
    }
  });

  it('each have a checksum pinned here', () => {
    expect(Object.keys(RELEASED).map(Number)).toEqual(MIGRATIONS.map((migration) => migration.version));
  });
});
