import { errorCode } from '@x/jobs-core';

/** The three exit codes of `x-jobs`: 0 ok, 1 the operation failed, 2 bad usage. */
export const EXIT_CODES = { ok: 0, failed: 1, usage: 2 } as const;

/** A process exit code `x-jobs` answers. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The exit code for a thrown value: 2 for `X_CLI_USAGE`, 1 for anything else. */
export function exitCodeFor(error: unknown): ExitCode {
  return errorCode(error) === 'X_CLI_USAGE' ? EXIT_CODES.usage : EXIT_CODES.failed;
}
