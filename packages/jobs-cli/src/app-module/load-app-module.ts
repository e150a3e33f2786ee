import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defineJobs, type JobRegistry, jobRegistry } from '@x/jobs-core';
import { isRegistrable, REGISTRABLE } from '@x/jobs-core/driver';
import { cliError, usageError } from '../errors.js';

/** A loaded `--module`: the file and the process-wide registry it filled. */
export interface AppModule {
  /** The absolute path imported. */
  readonly file: string;
  /** Every job and task registered in this process (the module's exports and its own `defineJobs`). */
  readonly registry: JobRegistry;
  /** The module's exports (for its optional `boot` hook). */
  readonly namespace: Readonly<Record<string, unknown>>;
}

/**
 * Imports the app's ESM module and registers every `job()` and `task()` handle it exports under
 * its export name, through `defineJobs` (a module that already called `defineJobs` itself is fine:
 * the same handle under the same name is one registration). A `.ts` file needs a TypeScript
 * loader in the process: run the CLI under tsx (`node --import tsx …/x-jobs …`).
 *
 * Missing file → `X_CLI_USAGE`; a module that fails to import → `X_CLI_MODULE_LOAD_FAILED`
 * (with the cause); nothing registered → `X_CLI_MODULE_EMPTY`; registration conflicts keep
 * core's codes (`X_JOB_DUPLICATE`, `X_JOB_REGISTRATION_INVALID`).
 */
export async function loadAppModule(file: string, cwd: string): Promise<AppModule> {
  const absolute = path.resolve(cwd, file);
  if (!existsSync(absolute)) {
    throw usageError(`--module ${file}: no such file (looked at ${absolute}).`, {
      hint: 'Pass the path of the ESM file that exports your job() and task() handles.',
    });
  }
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (error) {
    const typescript = /\.[cm]?tsx?$/.test(absolute);
    const unknownExtension = (error as { code?: unknown })?.code === 'ERR_UNKNOWN_FILE_EXTENSION';
    throw cliError(
      'X_CLI_MODULE_LOAD_FAILED',
      `--module ${file} could not be imported: ${error instanceof Error ? error.message : String(error)}`,
      {
        file: absolute,
        ...(typescript && unknownExtension
          ? {
              hint: `Node cannot import .ts by itself; run under tsx: node --import tsx $(which x-jobs) … --module ${file}`,
            }
          : {}),
      },
      error,
    );
  }
  const jobs: Record<string, unknown> = {};
  const tasks: Record<string, unknown> = {};
  for (const [exportName, value] of Object.entries(namespace)) {
    if (!isRegistrable(value)) continue;
    if (value[REGISTRABLE].kind === 'job') jobs[exportName] = value;
    else tasks[exportName] = value;
  }
  defineJobs({ jobs: [jobs], tasks: [tasks] });
  const registry = jobRegistry();
  if (registry.jobs().length === 0 && registry.tasks().length === 0) {
    throw cliError('X_CLI_MODULE_EMPTY', `--module ${file} exports no job() or task() handle.`, {
      file: absolute,
      hint: 'Export each handle by name: export const sendReceipt = job({ … }).',
    });
  }
  return { file: absolute, registry, namespace };
}
