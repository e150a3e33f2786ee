import { ChildJobError } from '../errors/child-job-error.js';
import type { CoreErrorCode } from '../errors/codes.js';
import { coreError } from '../errors/core-error.js';
import { errorCode } from '../errors/jobs-error.js';
import type { ErrorRetryClass } from './retry-decision.js';

/**
 * How core classifies its own codes. A backend outage or a timeout is worth retrying; a payload,
 * a step output or an event that is invalid now is invalid on every attempt. Codes left out
 * follow the backoff like any unclassified code.
 */
const CORE_ERROR_RETRY: Readonly<Partial<Record<CoreErrorCode, ErrorRetryClass>>> = {
  X_DRIVER_UNAVAILABLE: 'retryable',
  X_DRIVER_CLOSED: 'retryable',
  X_JOB_TIMEOUT: 'retryable',
  X_ABORTED: 'retryable',
  X_DRAINING: 'retryable',
  X_JOB_LEASE_LOST: 'retryable',
  X_JOB_SLOT_LOST: 'retryable',
  X_JOB_UNKNOWN: 'retryable',
  X_JOB_INPUT_INVALID: 'terminal',
  X_DRIVER_DATABASE_MISSING: 'terminal',
  X_DRIVER_AUTH_FAILED: 'terminal',
  X_DRIVER_URL_INVALID: 'terminal',
  X_DRIVER_HOST_UNKNOWN: 'terminal',
  X_JOB_KEY_INVALID: 'terminal',
  X_JOB_TENANT_MISMATCH: 'terminal',
  X_JOB_ENQUEUE_OPTIONS_INVALID: 'terminal',
  X_JOB_ENQUEUE_BATCH_TOO_LARGE: 'terminal',
  X_JOB_DECLARATION_INVALID: 'terminal',
  X_IDEMPOTENCY_REQUIRED: 'terminal',
  X_JOB_TENANT_REQUIRED: 'terminal',
  X_DURATION_INVALID: 'terminal',
  X_JOB_NOT_A_HANDLE: 'terminal',
  X_JOB_UNNAMED: 'terminal',
  X_STEP_DUPLICATE: 'terminal',
  X_STEP_OUTPUT_UNSERIALIZABLE: 'terminal',
  X_JOB_OUTPUT_UNSTORABLE: 'terminal',
  X_STEP_OUTCOME_UNKNOWN: 'terminal',
  X_JOB_EVENT_INVALID: 'terminal',
  X_JOB_CONCURRENCY_BUSY: 'terminal',
};

const CLASSES: readonly ErrorRetryClass[] = ['terminal', 'retry-after', 'retryable'];
const table = new Map<string, ErrorRetryClass>(Object.entries(CORE_ERROR_RETRY));

/**
 * Classifies error codes for the retry decision, process-wide. Call it beside the module that
 * declares the codes (the import is the registration). A later registration of a code replaces
 * the earlier one, core's own codes included. A class other than the three is
 * `X_JOB_DECLARATION_INVALID`.
 *
 * ```ts
 * registerErrorRetry({ X_INVOICE_REJECTED: 'terminal', X_GATEWAY_BUSY: 'retry-after' });
 * ```
 */
export function registerErrorRetry(classes: Readonly<Record<string, ErrorRetryClass>>): void {
  const entries = Object.entries(classes);
  for (const [code, retryClass] of entries) {
    if (code === '' || !CLASSES.includes(retryClass)) {
      throw coreError(
        'X_JOB_DECLARATION_INVALID',
        `registerErrorRetry: ${code || "''"} must map to 'terminal', 'retry-after' or 'retryable', got ${String(retryClass)}.`,
        { field: code },
      );
    }
  }
  for (const [code, retryClass] of entries) table.set(code, retryClass);
}

/**
 * The retry class of a thrown value's code, or undefined when the code is unclassified or absent.
 * A {@link ChildJobError} answers its child's verdict, whatever its code.
 */
export function errorRetryClass(error: unknown): ErrorRetryClass | undefined {
  if (error instanceof ChildJobError) return error.verdict;
  const code = errorCode(error);
  return code === undefined ? undefined : table.get(code);
}
