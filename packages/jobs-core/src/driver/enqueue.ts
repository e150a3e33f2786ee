import type { JsonValue } from '../values/json.js';

/**
 * One job row to write, fully resolved by core: the driver stores it as given and never
 * validates payloads or derives keys.
 */
export interface EnqueueRequest {
  /** The id the row gets if it is written. Chosen by the caller so the outbox can name it at staging. */
  readonly id: string;
  /** The run this row carries; step records are keyed by it. */
  readonly runId: string;
  /** The durable job name (the queue key handlers are looked up by). */
  readonly name: string;
  /** The queue the row is claimed from. */
  readonly queue: string;
  /** The validated input, already in its JSON form. */
  readonly payload: JsonValue;
  /** The tenant the row belongs to, or null for `tenant: 'none'`. Part of the dedupe scope. */
  readonly tenantId: string | null;
  /** The dedupe key: at most one live row per `(name, tenantId, idempotencyKey)`. */
  readonly idempotencyKey: string;
  /** Higher runs first. (Default: 0) */
  readonly priority: number;
  /** Epoch ms before which the row is not claimable; absent means now, on the driver's clock. */
  readonly runAt?: number;
  /** Attempts allowed before the row is dead-lettered. A positive integer. */
  readonly maxAttempts: number;
  /**
   * What a live duplicate does: `'dedupe'` answers the live row's id with `deduped: true`;
   * `'error'` throws `X_JOB_DUPLICATE` and writes nothing. (Default: 'dedupe')
   */
  readonly onConflict?: 'dedupe' | 'error';
  /** The actor id that asked for the work (`handle.as(actor, …)`): attribution, never authority. */
  readonly enqueuedBy?: string | null;
  /** W3C traceparent of the span that enqueued, so the worker's span can be its child. */
  readonly traceparent?: string | null;
}

/** What an enqueue answers: the row's id (the live row's on a dedupe) and its run id. */
export interface EnqueueResult {
  /** The id of the written row, or of the live row that deduped this request. */
  readonly id: string;
  /** The run id of that row. */
  readonly runId: string;
  /** True when no row was written because a live row already held the key. */
  readonly deduped: boolean;
}
