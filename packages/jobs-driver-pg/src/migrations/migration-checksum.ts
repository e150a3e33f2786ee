import { createHash } from 'node:crypto';
import type { Migration } from './migration.js';

/**
 * The sha256 of a migration's statements as written (schema placeholder included), so one
 * checksum holds for every schema name.
 */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.statements.join('\n;\n')).digest('hex');
}
