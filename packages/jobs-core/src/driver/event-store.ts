import type { JsonObject, JsonValue } from '../values/json.js';

/** One published event. */
export interface EventRecord {
  readonly id: string;
  readonly event: string;
  readonly payload: JsonValue;
  /** Epoch ms it was published, on the driver's clock. */
  readonly publishedAt: number;
  /** Epoch ms after which `find` no longer answers it. */
  readonly expiresAt: number;
}

/** What a waiter looks for. */
export interface EventQuery {
  /** Only events published at or after this epoch ms. */
  readonly since: number;
  /**
   * Only events whose payload contains this object: `jsonContains(payload, match)` from
   * `@x/jobs-core/driver` defines it (JSON containment, as Postgres `@>`: every key present with a
   * contained value, nested objects the same way, an array containing each wanted element).
   */
  readonly match?: JsonObject;
}

/** Storage for `publishEvent` / `step.waitForEvent`. */
export interface EventStore {
  /**
   * Stores the event for `ttlMs` and, in the same atomic operation, makes every job suspended
   * with `waitFor: event` due now, so waiters wake without waiting for their poll.
   */
  publish(event: string, payload: JsonValue, options: { readonly ttlMs: number }): Promise<EventRecord>;
  /** The earliest unexpired event named `event` satisfying `query`, or null. */
  find(event: string, query: EventQuery): Promise<EventRecord | null>;
  /** Deletes expired events; answers how many. */
  purgeExpired(): Promise<number>;
}
