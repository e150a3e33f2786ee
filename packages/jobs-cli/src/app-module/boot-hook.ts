import type { JobContext, JobDriver } from '@x/jobs-core';
import type { OutboxStore } from '@x/jobs-core/driver';
import type { DriverKind } from '../backend/backend-choice.js';
import { cliError } from '../errors.js';

/** What the CLI hands a module's `boot` export before it starts a worker, scheduler or dev loop. */
export interface BootInput {
  /** The driver the CLI opened (also installed as the ambient driver with `setJobDriver`). */
  readonly driver: JobDriver;
  /** Which backend it is. */
  readonly backend: DriverKind;
}

/** What `boot` may answer. Every member is optional. */
export interface BootResult {
  /** Builds each run's `ctx` (the app's services). (Default: an empty object) */
  readonly context?: () => JobContext | Promise<JobContext>;
  /**
   * An outbox store over the app's own database; the `dev` loop runs a relay that publishes its
   * committed rows to the driver.
   */
  readonly outbox?: OutboxStore<unknown>;
  /** Called last on shutdown, after the worker drained and before the driver closes. */
  readonly close?: () => Promise<void>;
}

/**
 * The optional `boot` export of a `--module`: `export async function boot({ driver }) { … }`.
 * It runs once, after the module registered and the driver opened, and answers what the worker
 * needs from the app.
 */
export type BootHook = (input: BootInput) => BootResult | undefined | Promise<BootResult | undefined>;

/** Runs the module's `boot` export when it has one; `X_CLI_MODULE_LOAD_FAILED` when it is not a function or throws. */
export async function runBootHook(
  namespace: Readonly<Record<string, unknown>>,
  input: BootInput,
): Promise<BootResult> {
  const boot = namespace.boot;
  if (boot === undefined) return {};
  if (typeof boot !== 'function') {
    throw cliError('X_CLI_MODULE_LOAD_FAILED', 'The module exports boot, but it is not a function.', {
      hint: 'export async function boot({ driver }) { return { context: () => ({ … }) }; }',
    });
  }
  try {
    return ((await (boot as BootHook)(input)) ?? {}) as BootResult;
  } catch (error) {
    throw cliError(
      'X_CLI_MODULE_LOAD_FAILED',
      `The module's boot() threw: ${error instanceof Error ? error.message : String(error)}`,
      {},
      error,
    );
  }
}
