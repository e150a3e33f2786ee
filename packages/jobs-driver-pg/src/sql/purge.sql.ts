/**
 * SQL_PURGE_DONE — deletes up to `$2` `done` rows of `job_history` finished before `$1`, and the
 * steps of every run left without a row in either table. The driver repeats it until a pass
 * deletes fewer than `$2`, so no single transaction grows with the backlog; it runs off the hot
 * path (the purger's schedule), and `jobs` is never touched. The batch is any `$2` rows past the
 * cutoff (a BRIN range scan that stops at the limit), not the oldest first: ordering would sort
 * every row past the cutoff on each pass. Dead and cancelled rows are kept.
 *
 * Params: `$1` float8 done-before epoch ms, `$2` int batch size.
 * Returns: one row `(n)`, the rows deleted.
 */
export const SQL_PURGE_DONE = `with doomed as (
  select id from :"SCHEMA".job_history
  where state = 'done' and finished_at < to_timestamp($1::float8 / 1000)
  limit $2::int
  for update skip locked
), gone as (
  delete from :"SCHEMA".job_history h using doomed d where h.id = d.id
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
