import type { Command } from 'commander';
import { type BackendFlags, describeBackend } from '../backend/backend-choice.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { startProgress } from '../output/progress.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs migrate`. */
export interface MigrateJson {
  /** The driver: `pg`, `pglite`, `redis` or `memory`. */
  readonly backend: string;
  /** Migrations this run applied, in order (empty when already current or schemaless). */
  readonly applied: readonly string[];
  /** Every migration the schema has now (empty for Redis and memory, which have no schema). */
  readonly current: readonly string[];
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
    await operate(context, flags, async (backend, printer) => {
      const where = describeBackend(backend.choice, context.io.cwd);
      if (backend.migrate === undefined) {
        const data: MigrateJson = { backend: backend.choice.kind, applied: [], current: [] };
        printer.result(data, (_, p) => `${p.dim('Nothing to migrate:')} ${where} keeps no schema.`);
        return;
      }
      const progress = startProgress(printer, `Migrating ${where}`);
      let report: Awaited<ReturnType<NonNullable<typeof backend.migrate>>>;
      try {
        report = await backend.migrate((name) => progress.update(name));
      } finally {
        progress.done();
      }
      const data: MigrateJson = {
        backend: backend.choice.kind,
        applied: report.applied,
        current: report.current,
      };
      printer.result(data, (result, p) =>
        result.applied.length === 0
          ? `${p.green('Up to date:')} ${where} has all ${result.current.length} migrations.`
          : [
              `${p.green('Migrated')} ${where}: applied ${result.applied.length} of ${result.current.length}.`,
              ...result.applied.map((name) => `  ${p.green('+')} ${name}`),
            ].join('\n'),
      );
    });
  });
}
