import { JobsError } from '@x/jobs-core';

/**
 * Every error code @x/jobs-outbox throws, with its one-line meaning. Codes are the contract;
 * messages may change.
 */
export const OUTBOX_ERROR_CODES = {
  X_OUTBOX_NO_TX:
    "An enqueue ran outside withOutbox(trx, …) while the facade is in mode: 'required'; nothing was written.",
  X_OUTBOX_TX_CLOSED:
    'An enqueue ran after the withOutbox callback had returned: its transaction is over; nothing was written.',
  X_OUTBOX_TX_INVALID:
    'The value bound with withOutbox is not a transaction of this store (a Kysely instance instead of its trx, another store).',
  X_OUTBOX_ON_CONFLICT_UNSUPPORTED:
    "onConflict: 'error' cannot be honoured for a staged enqueue: whether a live row holds the key is known only at publish.",
  X_OUTBOX_OPTIONS_INVALID: 'createOutboxRelay, createJobsFacade or a store was given an invalid option.',
  X_OUTBOX_TABLE_MISSING: 'The outbox table does not exist: run migrateOutbox(db) (or apply its DDL) first.',
} as const;

/** A code @x/jobs-outbox can throw. */
export type OutboxErrorCode = keyof typeof OUTBOX_ERROR_CODES;

/** Builds the `JobsError` for an outbox code: `throw outboxError('X_OUTBOX_NO_TX', '…')`. */
export function outboxError(
  code: OutboxErrorCode,
  message: string,
  meta?: Record<string, unknown>,
  cause?: unknown,
): JobsError<OutboxErrorCode> {
  return new JobsError(code, message, {
    ...(meta === undefined ? {} : { meta }),
    ...(cause === undefined ? {} : { cause }),
  });
}
