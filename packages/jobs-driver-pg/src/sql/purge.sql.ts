/**
 * SQL_PURGE_DONE — deletes up to `$2` `done` rows finished before `$1` (through
 * `jobs_finished_idx`) and the steps of every run left without a row. The driver repeats it until a
 * pass deletes fewer than `$2`, so no single transaction grows with the backlog. Dead rows are kept.
 *
 * Params: `$1` float8 done-before epoch ms, `$2` int batch size.
 * Returns: one row `(n)`, the job rows deleted.
 */
export const SQL_PURGE_DONE = `with doomed as (
  select id from :"SCHEMA".jobs
  where state = 'done' and finished_at < to_timestamp($1::float8 / 1000)
  order by finished_at
  limit $2::int
  for update skip locked
), gone as (
  delete from :"SCHEMA".jobs j using doomed d where j.id = d.id
  returning j.id, j.run_id
), steps_gone as (
  delete from :"SCHEMA".steps s
  where s.run_id in (select run_id from gone)
    and not exists (
      select 1 from :"SCHEMA".jobs o
      where o.run_id = s.run_id and o.id not in (select id from gone)
    )
)
select count(*)::int as n from gone`;
