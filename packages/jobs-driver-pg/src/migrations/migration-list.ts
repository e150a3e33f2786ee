import { MIGRATION_0001_INITIAL } from './0001-initial.js';
import { MIGRATION_0002_HOT_CLAIM } from './0002-hot-claim.js';
import { MIGRATION_0003_CLAIM_ROOM } from './0003-claim-room.js';
import { MIGRATION_0004_JOB_HISTORY } from './0004-job-history.js';
import { MIGRATION_0005_RATE_LIMITS } from './0005-rate-limits.js';
import { MIGRATION_0006_ATTEMPT_ERRORS } from './0006-attempt-errors.js';
import { MIGRATION_0007_FAIR_SERVICE } from './0007-fair-service.js';
import type { Migration } from './migration.js';

/** Every released migration, in version order. Append a new file; never edit a listed one. */
export const MIGRATIONS: readonly Migration[] = [
  MIGRATION_0001_INITIAL,
  MIGRATION_0002_HOT_CLAIM,
  MIGRATION_0003_CLAIM_ROOM,
  MIGRATION_0004_JOB_HISTORY,
  MIGRATION_0005_RATE_LIMITS,
  MIGRATION_0006_ATTEMPT_ERRORS,
  MIGRATION_0007_FAIR_SERVICE,
];

/** The schema version this release expects. */
export const LATEST_MIGRATION_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
