/** One held slot of a fleet-wide lease key. */
export interface LeaseGrant {
  /** The lease key, e.g. `job:sync-crm:acct-1` or `scheduler:leader`. */
  readonly key: string;
  /** Who holds it: a job run, a scheduler node. */
  readonly holder: string;
  /** Unique per grant: `renew` and `release` are fenced on it. */
  readonly token: string;
  /** Epoch ms the slot lapses unless renewed; after it another holder may take the slot. */
  readonly expiresAt: number;
}

/**
 * Fleet-wide counted slots with a TTL: the only thing that enforces `job.concurrency` across
 * processes, and the scheduler's leader lease (a key with limit 1).
 */
export interface LeaseStore {
  /**
   * Takes one of `limit` slots of `key` for `holder`, atomically. If `holder` already holds an
   * unexpired slot of `key`, that slot is renewed and returned with its token unchanged (acquire is
   * also the renewal).
   * Expired slots count as free. Answers null when all `limit` slots are held by others.
   */
  acquire(
    key: string,
    holder: string,
    options: { readonly limit: number; readonly ttlMs: number },
  ): Promise<LeaseGrant | null>;
  /**
   * Extends the grant by `ttlMs` from now. Null (nothing changed) once the grant lapsed — whether
   * or not another holder took its slot since — or was released: a lapsed grant is never revived.
   */
  renew(grant: LeaseGrant, ttlMs: number): Promise<LeaseGrant | null>;
  /**
   * Frees the slot. False when the grant no longer holds it: released, or lapsed (fenced on the
   * token and its expiry, never on the holder's name).
   */
  release(grant: LeaseGrant): Promise<boolean>;
  /** The unexpired grants of `key`. */
  holders(key: string): Promise<readonly LeaseGrant[]>;
}
