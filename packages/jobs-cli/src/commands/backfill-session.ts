import { type JobContext, setJobDriver } from '@x/jobs-core';
import { runBootHook } from '../app-module/boot-hook.js';
import { loadAppModule } from '../app-module/load-app-module.js';
import type { Backend } from '../backend/backend.js';
import { importOptional } from '../backend/import-optional.js';
import { cliError } from '../errors.js';

/** `@x/jobs-backfill`, loaded on demand: the CLI installs without it. */
export type BackfillPackage = typeof import('@x/jobs-backfill');

/** Loads `@x/jobs-backfill` (`X_CLI_PACKAGE_MISSING` naming it when absent). */
export function loadBackfillPackage(): Promise<BackfillPackage> {
  return importOptional(() => import('@x/jobs-backfill'), {
    code: 'X_CLI_PACKAGE_MISSING',
    packages: ['@x/jobs-backfill'],
    purpose: 'x-jobs backfill',
  });
}

/** The app as `x-jobs backfill` sees it: its declared backfills, its context, its migrations. */
export interface BackfillApp {
  readonly backfills: BackfillPackage;
  /** The app's `ctx` (from its `boot` hook), for `count()` in a dry run. */
  readonly context: JobContext;
  /** Applied migration ids from the module's `appliedMigrations` export, or undefined without one. */
  readonly appliedMigrations: readonly string[] | undefined;
  /** Runs the boot hook's `close`. */
  close(): Promise<void>;
}

/**
 * Imports the app module (its `backfill()` declarations register as it loads), installs the
 * backend's driver as the ambient one (so `--write` enqueues there), runs the module's `boot`
 * for the context, and reads its optional `appliedMigrations({ driver })` export: the app's own
 * migration ledger, which this CLI cannot know.
 */
export async function openBackfillApp(file: string, cwd: string, backend: Backend): Promise<BackfillApp> {
  const backfills = await loadBackfillPackage();
  const app = await loadAppModule(file, cwd);
  setJobDriver(backend.driver);
  const booted = await runBootHook(app.namespace, { driver: backend.driver, backend: backend.choice.kind });
  const context = (await booted.context?.()) ?? ({} as JobContext);
  return {
    backfills,
    context,
    appliedMigrations: await readAppliedMigrations(app.namespace, backend),
    close: async () => booted.close?.(),
  };
}

async function readAppliedMigrations(
  namespace: Readonly<Record<string, unknown>>,
  backend: Backend,
): Promise<readonly string[] | undefined> {
  const read = namespace.appliedMigrations;
  if (read === undefined) return undefined;
  const ids: unknown = typeof read === 'function' ? await read({ driver: backend.driver }) : undefined;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    throw cliError(
      'X_CLI_MODULE_LOAD_FAILED',
      'The module exports appliedMigrations, but it is not a function answering a list of migration ids.',
      { hint: "export async function appliedMigrations({ driver }) { return ['20261201_add_slug']; }" },
    );
  }
  return ids as string[];
}
