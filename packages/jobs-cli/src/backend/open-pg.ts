import type { Backend } from './backend.js';
import type { BackendChoice } from './backend-choice.js';
import { importOptional } from './import-optional.js';

/**
 * Opens `@x/jobs-driver-pg` on a connection string. The driver never migrates on its own here
 * (`migrate: false`): operators run `x-jobs migrate` as a deploy step, and a read like `ls` never
 * runs DDL. `migrate` applies pending migrations through the package's `migrate()`.
 */
export async function openPgBackend(choice: Extract<BackendChoice, { kind: 'pg' }>): Promise<Backend> {
  const pg = await importOptional(() => import('@x/jobs-driver-pg'), {
    code: 'X_CLI_DRIVER_MISSING',
    packages: ['@x/jobs-driver-pg'],
    purpose: '--driver pg',
  });
  const connection = { connectionString: choice.url, max: 4 };
  const schema = choice.schema === undefined ? {} : { schema: choice.schema };
  const driver = pg.postgresJobDriver(connection, { ...schema, migrate: false });
  return {
    choice,
    driver,
    async migrate() {
      const result = await pg.migrate(connection, schema);
      return { schema: result.schema, applied: result.applied, version: result.version };
    },
    close: () => driver.close(),
  };
}
