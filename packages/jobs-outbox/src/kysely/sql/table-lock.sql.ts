/**
 * Serializes claimers on this table (and migrations) for the rest of the transaction, so the
 * head-of-line check of a claim cannot pass for two relays at once. Stagers never take it.
 * Params: $1 the table's lock key (hashed to a bigint).
 */
export function tableLockSql(): string {
  return 'select pg_advisory_xact_lock(hashtextextended($1, 0))';
}
