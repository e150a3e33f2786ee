/**
 * The limits core holds every value to before a driver sees it. One table, identical on every
 * driver: memory, PGlite, Postgres and Redis store exactly what passes these, so a job that works
 * on one works on all of them.
 *
 * Identity strings are measured in UTF-8 bytes because that is what the Postgres unique index on
 * `(name, tenant_id, idempotency_key)` holds: a B-tree entry must fit a third of a page (2,704
 * bytes), and 255 + 255 + 1,024 bytes leaves room for the tuple header.
 */
export const VALUE_LIMITS = Object.freeze({
  /** A job's durable name, in UTF-8 bytes. */
  nameBytes: 255,
  /** A queue name, in UTF-8 bytes. */
  queueBytes: 255,
  /** A tenant id (derived or explicit), in UTF-8 bytes. */
  tenantBytes: 255,
  /** An idempotency key, in UTF-8 bytes. */
  idempotencyKeyBytes: 1_024,
  /** An explicit `runId`, in UTF-8 bytes. */
  runIdBytes: 255,
  /** A payload's JSON text, in UTF-8 bytes, unless the job declares `maxPayloadBytes`. (1 MiB) */
  defaultPayloadBytes: 1_048_576,
  /** The largest `maxPayloadBytes` a job may declare. (64 MiB) */
  maxPayloadBytes: 67_108_864,
  /** Nesting depth of a payload or a produced value. */
  maxDepth: 64,
  /** `retry.attempts`: attempts in all, the first included. */
  maxAttempts: 1_000,
  /** `concurrency.limit`. */
  maxConcurrencyLimit: 2_147_483_647,
  /**
   * `rateLimit.limit`: grants per window. A driver keeps one timestamp per grant of the window
   * (a sliding log, what makes the limit exact), so this bounds a key's storage to 80 KB.
   */
  maxRateLimit: 10_000,
  /** A `rateLimit.key` (declared, or answered by `key(input)`), in UTF-8 bytes. */
  rateLimitKeyBytes: 512,
  /** Latest `runAt`: 9999-12-31T23:59:59.999Z, in epoch ms. */
  maxRunAtMs: 253_402_300_799_999,
  /** Any duration (delay, retry delays, eventPoll, sleeps): 100 years of 365.25 days, in ms. */
  maxDurationMs: 3_155_760_000_000,
  /**
   * `timeout` and `stepTimeout`: Node's timer ceiling (2³¹−1 ms ≈ 24.8 days). Longer values are
   * refused rather than chunked: a longer attempt should be split with durable `step.sleep`.
   */
  maxTimerMs: 2_147_483_647,
});
