/**
 * A push signal that work may be waiting on a queue, so an idle worker claims at once instead of
 * polling. Delivery is a hint: a worker still polls (slowly) in case one is missed.
 */
export interface WakeSource {
  /**
   * Calls `listener(queue)` when a row becomes due on `queue`. Answers the unsubscribe. A backend
   * may need a round trip before a new subscription is live; wakes published before then may be
   * missed (a worker claims once when it starts anyway).
   */
  subscribe(listener: (queue: string) => void): () => void;
}
