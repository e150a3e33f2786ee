/**
 * Which jobs a settle wake names: their ids, or `null` when the backend sent a bare marker (more
 * settled in one batch than one notification holds) — a listener then re-reads what it waits on.
 */
export type SettledJobs = readonly string[] | null;

/**
 * A push signal that work may be waiting on a queue, so an idle worker claims at once instead of
 * polling; and, where the backend offers it, that jobs reached a terminal state, so `awaitResult`
 * in any process hears a settle at once. Delivery is a hint: a worker still polls (slowly) in case
 * one is missed, and so does `awaitResult`.
 */
export interface WakeSource {
  /**
   * Calls `listener(queue)` when a row becomes due on `queue`. Answers the unsubscribe. A backend
   * may need a round trip before a new subscription is live; wakes published before then may be
   * missed (a worker claims once when it starts anyway).
   */
  subscribe(listener: (queue: string) => void): () => void;
  /**
   * The settle wake: calls `listener(jobs)` after rows reach `done`, `dead` or `cancelled` (an ack,
   * a dead-letter, a cancel) — from any process on the same backend, once the settle is durable
   * (never for a settle that rolled back). One notification per settle **statement**, not per row:
   * a batched ack of 1,000 rows sends one, naming the ids when they fit (Postgres' 8,000-byte
   * payload; the same bound on Redis) and `null` otherwise, so the hot path pays one notify per
   * batch whether anyone awaits or not. A backend may listen lazily: the first subscription can
   * take a round trip to go live, and settles before that are missed (the awaiter's poll covers
   * them). Answers the unsubscribe. Optional: without it `awaitResult` hears other processes'
   * settles on its poll only. The conformance suite's `wake` group requires it.
   */
  subscribeSettled?(listener: (jobs: SettledJobs) => void): () => void;
}
