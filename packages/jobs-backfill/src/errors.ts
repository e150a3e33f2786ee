import { JobsError, registerErrorRetry } from '@x/jobs-core';

/**
 * Every error code @x/jobs-backfill throws, with its one-line meaning. Codes are the contract;
 * messages may change.
 */
export const BACKFILL_ERROR_CODES = {
  X_BACKFILL_DECLARATION_INVALID:
    'A backfill() or purge() field is invalid (meta.field names it): a batch that is not a positive integer, a rate that is not finite and positive, both or neither of pages and source, an input without scope.',
  X_BACKFILL_SOURCE_INVALID:
    'A page answered something other than { rows: [...], next }, or a cursor JSON cannot hold.',
  X_BACKFILL_STALLED:
    'The source ran out of pages while count() still matches rows: the two predicates disagree (terminal).',
  X_BACKFILL_COUNT_INVALID: 'count() answered something other than a non-negative safe integer (terminal).',
  X_BACKFILL_ENVIRONMENT:
    "The pass runs in an environment its declaration's environments does not include (terminal).",
  X_BACKFILL_MIGRATION_PENDING: 'A migration the backfill requires is not applied (the CLI pre-check).',
  X_BACKFILL_COMPLETED:
    'The backfill already has a completed ledger row; pass force to sweep again into a new row (the CLI pre-check).',
  X_BACKFILL_NOT_FOUND: 'No backfill is declared under that name.',
  X_PURGE_TARGET_DUPLICATE: 'Two purge targets share one name; refused before the first delete (terminal).',
  X_PURGE_TARGET_INVALID:
    'A purge target is not { name, purgeExpired(nowMs) }, or purgeExpired answered something other than a count (terminal).',
} as const;

/** A code @x/jobs-backfill can throw. */
export type BackfillErrorCode = keyof typeof BACKFILL_ERROR_CODES;

/** Builds a backfill error: `throw backfillError('X_BACKFILL_STALLED', '…', { name })`. */
export function backfillError(
  code: BackfillErrorCode,
  message: string,
  meta?: Record<string, unknown>,
  cause?: unknown,
): JobsError<BackfillErrorCode> {
  return new JobsError(code, message, {
    ...(meta === undefined ? {} : { meta }),
    ...(cause === undefined ? {} : { cause }),
  });
}

let registered = false;

/**
 * Classifies this package's codes for core's retry decision, once per process: a retry cannot fix
 * an authoring bug or the wrong deploy, so these dead-letter at once. Called by `backfill()` and
 * `purge()` (a module-level call would be dropped by bundlers that trust `sideEffects: false`).
 */
export function registerBackfillErrorRetry(): void {
  if (registered) return;
  registered = true;
  registerErrorRetry({
    X_BACKFILL_DECLARATION_INVALID: 'terminal',
    X_BACKFILL_SOURCE_INVALID: 'terminal',
    X_BACKFILL_STALLED: 'terminal',
    X_BACKFILL_COUNT_INVALID: 'terminal',
    X_BACKFILL_ENVIRONMENT: 'terminal',
    X_PURGE_TARGET_DUPLICATE: 'terminal',
    X_PURGE_TARGET_INVALID: 'terminal',
  });
}
