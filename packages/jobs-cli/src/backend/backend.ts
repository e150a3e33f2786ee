import type { JobDriver } from '@x/jobs-core';
import type { BackendChoice } from './backend-choice.js';

/** What `migrate` reports. */
export interface MigrationReport {
  /** The schema migrated. */
  readonly schema: string;
  /**
   * Migration versions applied by this call, in order (empty when the schema was current); null
   * for PGlite, which migrates itself when it opens and does not report which versions were new.
   */
  readonly applied: readonly number[] | null;
  /** The schema version after the call. */
  readonly version: number;
}

/** An opened backend: the driver and what the CLI needs around it. */
export interface Backend {
  readonly choice: BackendChoice;
  readonly driver: JobDriver;
  /** Applies pending schema migrations. Absent for backends with no schema (Redis, memory). */
  readonly migrate?: () => Promise<MigrationReport>;
  /** Closes the driver and anything opened for it (a PGlite instance, a pool). Safe to call twice. */
  close(): Promise<void>;
}
