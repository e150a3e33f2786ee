import type { Backend } from './backend.js';
import type { BackendChoice } from './backend-choice.js';
import { importOptional } from './import-optional.js';

/**
 * What `--driver pglite` needs, in the order of `@x/jobs-driver-pg`'s README install line for the
 * embedded entry (`npm install …` with these words; a test holds the two equal).
 */
export const PGLITE_PACKAGES = ['@x/jobs-driver-pg', '@x/jobs-core', 'zod', '@electric-sql/pglite'] as const;

/**
 * Opens `@x/jobs-driver-pg/pglite` on a data directory. The driver holds the directory's lock
 * file for as long as it is open (a second process is refused with `X_PGLITE_LOCKED`) and,
 * being embedded, applies pending migrations itself when it opens.
 */
export async function openPgliteBackend(
  choice: Extract<BackendChoice, { kind: 'pglite' }>,
): Promise<Backend> {
  const pglite = await importOptional(() => import('@x/jobs-driver-pg/pglite'), {
    code: 'X_CLI_DRIVER_MISSING',
    packages: PGLITE_PACKAGES,
    purpose: '--driver pglite',
  });
  const driver = await pglite.pgliteJobDriver({
    dataDir: choice.dataDir,
    ...(choice.schema === undefined ? {} : { schema: choice.schema }),
  });
  return {
    choice,
    driver,
    // Migrated on open; which versions were new is not reported by the embedded entry.
    migrate: async () => ({ schema: driver.schema, applied: null, version: await latestVersion() }),
    close: () => driver.close(),
  };
}

async function latestVersion(): Promise<number> {
  const { LATEST_MIGRATION_VERSION } = await import('@x/jobs-driver-pg');
  return LATEST_MIGRATION_VERSION;
}
