/**
 * SQL_STATS — per queue and state, the row count, and the age of the oldest row due now
 * (`ready`, or `delayed`/`suspended` past `run_at`); paused queues appear even when empty.
 * A full pass over `jobs` and `job_history` (no counters are kept: a counter row every claim and
 * ack updated would serialize them); finished rows are counted from `job_history`.
 *
 * Params: none.
 * Returns: `(queue, state, n, oldest_due_age_ms, paused)`; `state` null for a paused queue without rows.
 */
export const SQL_STATS = `with counts as (
  select queue, state, count(*)::int as n,
    min(run_at) filter (where state in ('ready', 'delayed', 'suspended') and run_at <= now()) as oldest_due
  from :"SCHEMA".jobs
  group by queue, state
  union all
  select queue, state, count(*)::int as n, null as oldest_due
  from :"SCHEMA".job_history
  group by queue, state
)
select coalesce(c.queue, p.queue) as queue, c.state, coalesce(c.n, 0) as n,
  floor(extract(epoch from (now() - c.oldest_due)) * 1000)::float8 as oldest_due_age_ms,
  p.queue is not null as paused
from counts c
full join :"SCHEMA".paused_queues p on p.queue = c.queue`;
