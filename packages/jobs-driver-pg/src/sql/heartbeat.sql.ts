/**
 * SQL_HEARTBEAT — extends a held lease to `now() + $3 ms`. Fenced: no row when the claim lost
 * the row (cancelled, reclaimed by another claimer after a lapse, settled); the holder must stop.
 *
 * Params: `$1` job id, `$2` claim token, `$3` float8 visibility timeout ms.
 * Returns: `(id, lease_expires_at)` when it landed.
 */
export const SQL_HEARTBEAT = `update :"SCHEMA".jobs
set lease_expires_at = now() + $3::float8 * interval '1 millisecond'
where id = $1::text and claim_token = $2::text and state = 'running'
returning id, lease_expires_at`;
