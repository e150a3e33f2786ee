import type { EnqueueRequest } from './enqueue.js';
import type { WakeSource } from './wake.js';

/** A staged row as the relay holds it after {@link OutboxStore.claim}. */
export interface OutboxRecord {
  /** The outbox row's own id, store-assigned and increasing in staging order: the tiebreak after `stagedAt`. */
  readonly id: string;
  /** The job to publish, exactly as staged. Its `id` is the job id chosen at staging, so a re-publish dedupes. */
  readonly request: EnqueueRequest;
  /** Epoch ms the row was staged (on Postgres, its transaction's start: rows of one transaction tie). */
  readonly stagedAt: number;
  /** The claimant token this claim stamped; `release` and `markPublished` land only with it. */
  readonly claimedBy: string;
  /** Epoch ms this claim lapses; from then on any claimant may take the row again. */
  readonly claimedUntil: number;
  /** Claims of this row so far, this one included. */
  readonly attempts: number;
  /** The error the last `release` recorded (a failed publish), or null. */
  readonly lastError: string | null;
}

/** What a relay asks {@link OutboxStore.claim} for. */
export interface OutboxClaimOptions {
  /** A token unique to this claim (a fresh one per pass): the fence for `release` and `markPublished`. */
  readonly claimant: string;
  /** At most this many rows (a positive integer). */
  readonly limit: number;
  /** How long the claimed rows stay the claimant's before another may take them (ms, positive). */
  readonly leaseMs: number;
}

/**
 * Where enqueues made inside the app's transaction wait until a relay publishes them. Rows are
 * written on the caller's connection (`tx`), so a rollback leaves no row and a commit leaves one.
 *
 * Guarantees every implementation owes (checked by `outboxStoreConformance` in @x/jobs-conformance):
 * - **Atomic with the caller**: `stage` writes through `tx` only; nothing is visible to `claim`
 *   before `tx` commits, and nothing ever is if it rolls back.
 * - **A claim is a lease**: `claim` stamps `claimant` and `claimedUntil` in the same atomic step
 *   that selects the rows; a row is claimable only while unpublished and unclaimed or lapsed.
 * - **Head of line**: while any unpublished row is held under a live lease, `claim` answers
 *   nothing, so one batch is in flight at a time and later rows never overtake earlier ones.
 * - **Order**: `claim` answers rows in `(stagedAt, id)` order, oldest first.
 * - **Fencing**: `release` and `markPublished` change only rows still held by `claimant`; a
 *   claimant whose lease lapsed and was reclaimed owns nothing and changes nothing.
 */
export interface OutboxStore<Tx = unknown> {
  /** A short name for logs: `'memory'`, `'kysely-postgres'`. */
  readonly name: string;
  /** Writes one row through the caller's transaction `tx` (refused when `tx` is not one). */
  stage(tx: Tx, request: EnqueueRequest): Promise<void>;
  /** Writes many rows through `tx` in one round trip, in the given order. */
  stageMany(tx: Tx, requests: readonly EnqueueRequest[]): Promise<void>;
  /** Claims up to `limit` committed, unpublished, unclaimed-or-lapsed rows (see the guarantees). */
  claim(options: OutboxClaimOptions): Promise<readonly OutboxRecord[]>;
  /**
   * Hands rows back unclaimed at once (a failed publish), recording `error` on them. Fenced on
   * `claimant`; answers how many rows it released.
   */
  release(claimant: string, ids: readonly string[], error?: string): Promise<number>;
  /** Retires rows the claimant published. Fenced on `claimant`; answers how many it marked. */
  markPublished(claimant: string, ids: readonly string[]): Promise<number>;
  /** How many committed rows wait to be published: the relay's backlog. */
  backlog(): Promise<number>;
  /** A push signal that rows were committed, so an idle relay passes at once instead of polling. */
  readonly wake?: WakeSource;
}
