/**
 * SQL_ATTEMPT_ERROR_RECORD — appends one failed attempt's record to the row's `attempt_errors`
 * (migration 6), stamped `at` with the database's clock, keeping the newest `$4`, oldest first.
 * Fenced on the claim: it writes nothing unless the row is `running` under `$2`. The driver runs it
 * in one transaction with the retry or dead nack it belongs to, so the record lands exactly when
 * the nack does (a settle retried after a lost reply records it once). Off the hot path: only a
 * failed attempt runs it.
 *
 * Params: `$1` job id, `$2` claim token, `$3` the record (JSON text of an `AttemptFailure`),
 * `$4` int records kept per job.
 * Returns: `(id)` when it landed, no row when fenced out.
 */
export const SQL_ATTEMPT_ERROR_RECORD = `update :"SCHEMA".jobs j
set attempt_errors = (
  select jsonb_agg(kept.value order by kept.ord)
  from (
    select e.value, e.ord
    from jsonb_array_elements(
      coalesce(j.attempt_errors, '[]'::jsonb)
        || jsonb_build_array($3::text::jsonb || jsonb_build_object('at', trunc(extract(epoch from now()) * 1000)::bigint))
    ) with ordinality as e(value, ord)
    order by e.ord desc
    limit $4::int
  ) kept
)
where j.id = $1::text and j.claim_token = $2::text and j.state = 'running'
returning j.id`;
