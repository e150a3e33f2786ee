import type { Command } from 'commander';
import type { MigrationReport } from '../backend/backend.js';
import { type BackendFlags, describeBackend } from '../backend/backend-choice.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { startProgress } from '../output/progress.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs migrate`. */
export interface MigrateJson {
  /** The driver: `pg`, `pglite`, `redis` or `memory`. */
  readonly backend: string;
  /** The schema migrated, or null for Redis and memory (no schema). */
  readonly schema: string | null;
  /**
   * Migration versions this run applied, in order (empty when already current or schemaless);
   * null on PGlite, which migrates itself when opened and does not say which versions were new.
   */
  readonly applied: readonly number[] | null;
  /** The schema version now (0 for Redis and memory). */
  readonly version: number;
}

/** `x-jobs migrate`: applies pending schema migrations (PostgreSQL, PGlite); a no-op elsewhere. */
export function registerMigrate(program: Command, context: CommandContext): void {
  const command = program
    .command('migrate')
    .description('apply pending schema migrations (PostgreSQL and PGlite; Redis and memory need none)')
    .addHelpText(
      'after',
      examples(
        'DATABASE_URL=postgres://postgres@127.0.0.1:5432/app x-jobs migrate --schema x_jobs',
        'x-jobs migrate --driver pglite --data-dir ./.x-jobs',
      ),
    );
  addJsonOption(addBackendOptions(command)).action(async (flags: BackendFlags & JsonFlag) => {
    await operate(
      context,
      flags,
      async (backend, printer) => {
        // The schema is named once, from the report, not twice.
        const { choice } = backend;
        const where = describeBackend(
          choice.kind === 'pg' ? { kind: 'pg', url: choice.url } : choice,
          context.io.cwd,
        );
        if (backend.migrate === undefined) {
          const data: MigrateJson = { backend: backend.choice.kind, schema: null, applied: [], version: 0 };
          printer.result(data, (_, p) => `${p.dim('Nothing to migrate:')} ${where} keeps no schema.`);
          return;
        }
        const progress = startProgress(printer, `Migrating ${where}`);
        let report: MigrationReport;
        try {
          report = await backend.migrate();
        } finally {
          progress.done();
        }
        const data: MigrateJson = { backend: backend.choice.kind, ...report };
        printer.result(data, (result, p) =>
          result.applied === null || result.applied.length === 0
            ? `${p.green('Up to date:')} schema ${result.schema} on ${where} is at version ${result.version}.`
            : `${p.green('Migrated')} schema ${result.schema} on ${where}: applied ${result.applied
                .map((version) => `#${version}`)
                .join(', ')}; now at version ${result.version}.`,
        );
      },
      { createsDatabase: true },
    );
  });
}
