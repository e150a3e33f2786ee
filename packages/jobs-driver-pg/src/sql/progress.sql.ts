/**
 * SQL_PROGRESS — stores a progress report on a claimed row. Fenced on the claim.
 *
 * Params: `$1` job id, `$2` claim token, `$3` progress (JSON text `{"current":…,"total":…}`).
 * Returns: `(id)` when it landed.
 */
export const SQL_PROGRESS = `update :"SCHEMA".jobs
set progress = $3::text::jsonb
where id = $1::text and claim_token = $2::text and state = 'running'
returning id`;
