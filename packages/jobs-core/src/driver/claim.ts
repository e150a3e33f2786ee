import type { JsonValue } from '../values/json.js';

/**
 * The proof of one claim. Every settle (ack, nack, heartbeat, progress, step write) passes it
 * back and lands only while the row is still `running` under this exact token.
 */
export interface ClaimRef {
  /** The worker that holds the claim (for introspection; fencing is on the token). */
  readonly workerId: string;
  /** A token unique to this claim: a reclaimed row gets a new one, so the old holder is fenced out. */
  readonly token: string;
}

/** What a claimer asks for. */
export interface ClaimOptions {
  /** Claim only from these queues; an empty list claims nothing. */
  readonly queues: readonly string[];
  /** At most this many rows (a positive integer). */
  readonly limit: number;
  /** Recorded on each claimed row. */
  readonly workerId: string;
  /** How long the claimed rows stay invisible to other claimers without a heartbeat. */
  readonly visibilityTimeoutMs: number;
  /**
   * Also starts the first `start` rows of this claim (in claim order) in the same atomic step, as
   * `JobDriver.start` would: for rows the caller runs at once, so each body saves the round
   * trip of its own start. Those rows come back with `started: true`; the rest count nothing, and so
   * does a row whose `attempts` already reached `maxAttempts` (it comes back `started: false`).
   * Pass only as many as will run now: a started row lost with its process stays counted.
   * (Default: 0)
   */
  readonly start?: number;
}

/**
 * A row handed to exactly one claimer. After `claim` resolves no other claimer can get it until
 * its lease (`leaseExpiresAt`) lapses. The claim counted no attempt; `start` counts it.
 */
export interface ClaimedJob {
  readonly id: string;
  readonly runId: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: JsonValue;
  readonly tenantId: string | null;
  readonly idempotencyKey: string;
  readonly priority: number;
  /**
   * The number this attempt has once started, 1-based: attempts started so far, plus one. Above
   * `maxAttempts` when every allowed attempt started and none settled (each one's process died):
   * the executor then dead-letters the row (`attempts-exhausted`) without starting the body.
   */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Epoch ms the row was enqueued. */
  readonly enqueuedAt: number;
  /** Epoch ms the row became due. */
  readonly runAt: number;
  /** Epoch ms the lease lapses unless a heartbeat extends it. */
  readonly leaseExpiresAt: number;
  readonly enqueuedBy: string | null;
  readonly traceparent: string | null;
  /** The fencing token to pass to every settle. */
  readonly claim: ClaimRef;
  /**
   * True when the claim itself started this attempt ({@link ClaimOptions.start}): counted, and a
   * `start` on it answers false. Absent or false: call `start` when the body begins.
   */
  readonly started?: boolean;
  /**
   * Whether this claim took the row from an earlier claim whose lease lapsed (`running` with
   * `leaseExpiresAt` passed: its holder died or stalled) — true — or from `ready`, `delayed` or
   * `suspended` — false. A row handed back (release) is not lapsed. The executor lets the first
   * attempt of a row claimed with `lapsed: false` run while its `start` is in flight; every other
   * start, and every start of a driver that leaves this absent, is awaited before the body.
   */
  readonly lapsed?: boolean;
}
