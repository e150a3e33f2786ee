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
