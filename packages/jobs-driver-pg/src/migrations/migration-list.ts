import { MIGRATION_0001_INITIAL } from './0001-initial.js';
import type { Migration } from './migration.js';

/** Every released migration, in version order. Append a new file; never edit a listed one. */
export const MIGRATIONS: readonly Migration[] = [MIGRATION_0001_INITIAL];

/** The schema version this release expects. */
export const LATEST_MIGRATION_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
