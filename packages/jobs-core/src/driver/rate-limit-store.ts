/** The window of one rate-limit take: at most `limit` takes in any `perMs` of the driver's clock. */
export interface RateLimitWindow {
  /** Takes allowed in any window of `perMs`: a positive integer (core admits 1 to 10,000). */
  readonly limit: number;
  /** The window's length in ms: a positive integer. */
  readonly perMs: number;
}

/** What one take answers: granted now, or refused until `retryAt`. */
export type RateLimitTake =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /**
       * Epoch ms on the driver's clock (`driver.now()`) before which a take of this key is
       * certainly refused; see {@link RateLimitStore.take} for how late it may be.
       */
      readonly retryAt: number;
    };

/**
 * Fleet-wide sliding-window rate limits: what enforces `job.rateLimit` across every worker process.
 *
 * The rule every implementation owes, per key, on the driver's own clock (the database's, the Redis
 * server's, the memory driver's injected one), so skewed process clocks cannot break it:
 *
 * - **Exact**: in any half-open window `[t, t + perMs)` at most `limit` takes of a key are granted,
 *   however many processes take at once. A take is atomic: it counts the key's grants of the last
 *   `perMs` and records its own in one step (one statement, one script, one synchronous call).
 * - **Sliding, not fixed**: a grant stops counting exactly `perMs` after it was made; there is no
 *   window boundary at which `2 × limit` can pass.
 * - **retryAt bounds**: a refused take answers `retryAt` ≥ the moment the oldest counted grant stops
 *   counting (no take before it could be granted). The first refused taker of a key gets exactly
 *   that moment; refused takers after it are spaced `perMs / limit` apart behind it (a line of
 *   deferrals that comes back one grant at a time rather than all at once), so `retryAt` is at most
 *   `now + perMs × (1 + refusedAhead / limit)`, where `refusedAhead` counts refusals whose
 *   `retryAt` is still in the future. `retryAt` is advice: the take made then is checked again.
 * - **Shared keys**: the log belongs to the key, whatever `limit` each take passes; a take with a
 *   lower limit counts the grants made under a higher one.
 * - Storage per key is bounded by `limit` grants and lapses by itself `perMs` after the last take.
 */
export interface RateLimitStore {
  /** Takes one grant of `key` if its window allows it, atomically; else answers when to come back. */
  take(key: string, window: RateLimitWindow): Promise<RateLimitTake>;
}
