import { JobsError } from '@x/jobs-core';

/**
 * Every error code the `x-jobs` binary throws, with its one-line meaning. Core codes
 * (`X_JOB_NOT_FOUND`, `X_JOB_NOT_CANCELLABLE`, `X_DRIVER_UNAVAILABLE`, …) pass through unchanged.
 */
export const CLI_ERROR_CODES = {
  X_CLI_USAGE:
    'The command line is wrong: an unknown command or option, a missing or malformed argument, a driver without its URL.',
  X_CLI_DRIVER_MISSING: 'The backend chosen needs a package that is not installed; the message names it.',
  X_CLI_PACKAGE_MISSING: 'The command needs an optional package that is not installed; the message names it.',
  X_CLI_DATA_DIR_MISSING:
    'A command that reads or operates on the embedded database met no PGlite data directory there; --data-dir names where it is.',
  X_CLI_INTROSPECTION_UNSUPPORTED:
    'The driver has no introspection, so it cannot list, show or operate on rows.',
  X_CLI_MODULE_LOAD_FAILED:
    'The --module file could not be imported (a syntax error, a throw at load, .ts without tsx), or its boot() threw.',
  X_CLI_MODULE_EMPTY: 'The --module file exports no job() or task() handle to register.',
  X_CLI_JOB_NOT_RETRYABLE: 'retry met a live row: only dead, cancelled or done rows can be retried.',
  X_CLI_JOB_NOT_PROMOTABLE: 'promote met a row that is neither delayed nor suspended.',
  X_CLI_JOB_NOT_REMOVABLE: 'remove met a running row: cancel it first, or wait for it to settle.',
  X_CLI_JOB_CHANGED:
    'The job changed state while the command ran (a worker or another operator); show it and retry.',
  X_CLI_STEP_NOT_FOUND: 'The step named is not recorded for that job.',
  X_CLI_DASHBOARD_LISTEN_FAILED:
    'x-jobs dashboard could not listen on the host and port given (in use, not allowed).',
  X_CLI_HEALTH_LISTEN_FAILED:
    'x-jobs worker --health-port could not listen on that port (in use, not allowed).',
  X_CLI_STEP_NOT_STARTED: 'resolve-step met a step that is not left started, so there is nothing to resolve.',
  X_CLI_CHECK_FAILED:
    'A check found what it looks for (check-replay: a live run would diverge; backfill --pending: something is unswept; --all: a name failed); the result is printed, the exit code is 1.',
} as const;

/** A code the `x-jobs` binary throws. */
export type CliErrorCode = keyof typeof CLI_ERROR_CODES;

/** The extra fields a usage error carries: what to type instead. */
export interface UsageHint {
  /** The usage line of the command that was misused, e.g. `x-jobs retry <id> [options]`. */
  readonly usage?: string;
  /** One line saying what to type instead. */
  readonly hint?: string;
}

/** Throw-ready constructor for a CLI error: `throw cliError('X_CLI_USAGE', '…', { hint })`. */
export function cliError(
  code: CliErrorCode,
  message: string,
  meta?: Record<string, unknown>,
  cause?: unknown,
): JobsError<CliErrorCode> {
  return new JobsError(code, message, {
    ...(meta === undefined ? {} : { meta }),
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The failure of a check whose result the command already printed (exit 1, nothing more printed,
 * so stdout stays one JSON document under `--json`).
 */
export function checkFailed(message: string): JobsError<CliErrorCode> {
  return cliError('X_CLI_CHECK_FAILED', message, { reported: true });
}

/** True for a {@link checkFailed} error: its command already printed the result. */
export function isReported(error: unknown): boolean {
  return error instanceof JobsError && error.meta.reported === true;
}

/** A bad-usage error (exit 2) with the hint printed under it. */
export function usageError(message: string, hint: UsageHint = {}): JobsError<CliErrorCode> {
  return cliError('X_CLI_USAGE', message, { ...hint });
}
