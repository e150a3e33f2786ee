/**
 * SQL_STEP_SAVE — upserts one durable step of a run, fenced on the job's claim.
 *
 * The fence reads the job row `FOR SHARE`: a concurrent ack, nack or reclaim either commits
 * first (then the fence re-checks the new row version and fails) or waits for this write. A
 * rewrite of a step keeps its `position` and `started_at` and replaces status, output, error
 * and `completed_at`.
 *
 * Params: `$1` run id, `$2` step name, `$3` int position, `$4` status, `$5` output (JSON text),
 * `$6` error (JSON text or null), `$7` float8 started-at epoch ms, `$8` float8 completed-at
 * epoch ms or null, `$9` job id, `$10` claim token.
 * Returns: `(run_id)` when it landed, no row when fenced out.
 */
export const SQL_STEP_SAVE = `insert into :"SCHEMA".steps (run_id, name, position, status, output, error, started_at, completed_at)
select $1::text, $2::text, $3::int, $4::text, $5::text::jsonb, $6::text::jsonb,
  to_timestamp($7::float8 / 1000), to_timestamp($8::float8 / 1000)
where exists (
  select 1 from :"SCHEMA".jobs j
  where j.id = $9::text and j.run_id = $1::text and j.claim_token = $10::text and j.state = 'running'
  for share
)
on conflict (run_id, name) do update
set status = excluded.status, output = excluded.output, error = excluded.error,
  completed_at = excluded.completed_at
returning run_id`;

/**
 * SQL_STEP_SAVE_MANY — SQL_STEP_SAVE for the saves of many runs in one statement and one commit:
 * the driver gathers the saves that arrive while an earlier batch commits (each caller's promise
 * resolves only after the statement holding its step committed, so a step's output is durable
 * before its run goes on). Each row is fenced on its own job's claim exactly as SQL_STEP_SAVE is;
 * a batch never holds one `(run, name)` twice (the driver sends such saves one by one).
 *
 * Params: arrays of equal length — `$1` run ids, `$2` step names, `$3` int[] positions, `$4`
 * statuses, `$5` outputs (JSON text), `$6` errors (JSON text or null), `$7` float8[] started-at
 * epoch ms, `$8` float8[] completed-at epoch ms or null, `$9` job ids, `$10` claim tokens.
 * Returns: `(saved)` for every save that landed: its 1-based position in the arrays.
 */
export const SQL_STEP_SAVE_MANY = `with s as (
  select * from unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[],
    $7::float8[], $8::float8[], $9::text[], $10::text[]) with ordinality
    as s(run_id, name, pos, status, output, error, started_ms, completed_ms, job_id, token, ord)
), fenced as (
  select s.* from s
  where exists (
    select 1 from :"SCHEMA".jobs j
    where j.id = s.job_id and j.run_id = s.run_id and j.claim_token = s.token and j.state = 'running'
    for share
  )
), written as (
  insert into :"SCHEMA".steps (run_id, name, position, status, output, error, started_at, completed_at)
  select f.run_id, f.name, f.pos, f.status, f.output::jsonb, f.error::jsonb,
    to_timestamp(f.started_ms / 1000), to_timestamp(f.completed_ms / 1000)
  from fenced f
  on conflict (run_id, name) do update
  set status = excluded.status, output = excluded.output, error = excluded.error,
    completed_at = excluded.completed_at
  returning run_id, name
)
select f.ord::int as saved from fenced f join written w on w.run_id = f.run_id and w.name = f.name`;
