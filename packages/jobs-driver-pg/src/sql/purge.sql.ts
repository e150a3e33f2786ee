/**
 * SQL_PURGE_DONE — deletes up to `$2` `done` rows of `job_history` finished before `$1`, and the
 * steps of every run left without a row in either table. The driver repeats it until a pass
 * deletes fewer than `$2`, so no single transaction grows with the backlog; it runs off the hot
 * path (the purger's schedule), and `jobs` is never touched. The batch is any `$2` rows past the
 * cutoff (a BRIN range scan that stops at the limit), not the oldest first: ordering would sort
 * every row past the cutoff on each pass. Dead and cancelled rows are kept.
 *
 * The batch's rows are deleted by `ctid` (a TID scan of exactly those tuples), with no row lock
 * taken first: a concurrent purger that picked the same rows waits for this delete and then finds
 * them gone, and the delete re-checks state and cutoff on any row a concurrent statement changed.
 * Against joining the batch back by id after `FOR UPDATE SKIP LOCKED` (the statement before
 * 2 Dec), whose generic plan hashed the whole table on every pass (so a purge was quadratic in
 * the backlog) and wrote a lock record per row, a 5,000-row pass over 100,000 rows went 494 →
 * 104 ms and 10,000 → 5,000 WAL records (1.7 MB → 0.27 MB).
 *
 * Params: `$1` float8 done-before epoch ms, `$2` int batch size.
 * Returns: one row `(n)`, the rows deleted.
 */
export const SQL_PURGE_DONE = `with gone as (
  delete from :"SCHEMA".job_history h
  where h.ctid = any (array(
      select ctid from :"SCHEMA".job_history
      where state = 'done' and finished_at < to_timestamp($1::float8 / 1000)
      limit $2::int
    ))
    and h.state = 'done' and h.finished_at < to_timestamp($1::float8 / 1000)
  returning h.id, h.run_id
), steps_gone as (
  delete from :"SCHEMA".steps s
  where s.run_id in (select run_id from gone)
    and not exists (select 1 from :"SCHEMA".jobs o where o.run_id = s.run_id)
    and not exists (
      select 1 from :"SCHEMA".job_history o
      where o.run_id = s.run_id and o.id not in (select id from gone)
    )
)
select count(*)::int as n from gone`;
