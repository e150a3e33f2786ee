/**
 * The shape every batched, fenced statement of `jobs` shares (SQL_ACK_MANY, SQL_ACK_MANY_DROP,
 * SQL_START_MANY, SQL_NACK_RELEASE_MANY): the batch's rows are found one primary-key probe per
 * entry, then written by `ctid`.
 *
 * Why not a join of the batch with `jobs` (the statements before issue 29): its plan was the
 * planner's to choose, and on a deep backlog it chose to read the whole table. `analyze` samples a
 * backlog while almost no row is `running`, so `state = 'running'` looked like one row and one
 * sequential pass over `jobs` cheaper than a probe per entry; with the value hidden, a hash join
 * over a sequential pass still looked cheaper than 250 probes of a table made wide by its
 * fillfactor. Either plan reads every row of `jobs` per batch: 0.1–0.8 s per ack batch in a W1
 * drain, 8.5 s under a held xmin (W8), where the same batch probing 250 rows takes a few ms. A
 * lateral probe per entry (kept a sub-query by its `limit 1`: without it, or a lock, the planner
 * flattens it into the same join) has no other plan, and the write then finds the rows by `ctid` (a Tid
 * scan, no second descent).
 *
 * A row updated by someone else between the probe and the write has a new `ctid`, so the write
 * would miss it. Where a concurrent update may legitimately land on a row the batch still holds
 * (a heartbeat racing the ack of the same job), the probe locks the row (`for update`: a lock
 * record per row, ≈ 10 B of WAL per acked job in W1) so the version it found is the one written.
 * Where none can (a start: nothing renews a lease before its body starts; only a cancel or a
 * reclaim after a lapse change such a row, and both must fence the start out), it does not lock:
 * the lock record cost a start ≈ 105 B of WAL (303 → 408 B per row, W1).
 */

/**
 * The `hit` CTE: one row per batch entry that holds its row now — the entry's columns, and
 * `row_ctid`, the locked row version. `entries` is the `unnest(…) with ordinality as e(id, token,
 * …, ord)` FROM item; `where` adds conditions on the row (`j.…`) beyond the fence (`id`, `token`,
 * `running`); `lock` false leaves the row unlocked (see above for when that is sound).
 */
export function probedEntries(entries: string, where = '', lock = true): string {
  return `hit as (
  select e.*, locked.ctid as row_ctid
  from ${entries}
  cross join lateral (
    select j.ctid from :"SCHEMA".jobs j
    where j.id = e.id and j.claim_token = e.token and j.state = 'running'${where}
    limit 1${lock ? ' for update' : ''}
  ) locked
)`;
}

/** The rows of `hit`, for a write's WHERE: a Tid scan of exactly the versions the probe found. */
export const HIT_ROWS = `j.ctid = any(array(select row_ctid from hit))`;
