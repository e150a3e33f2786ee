/**
 * SQL_ACK — marks one claimed row `done` with its result. Fenced: lands only while the row is
 * `running` under the caller's claim token.
 *
 * Params: `$1` job id, `$2` claim token, `$3` result (JSON text, null for none).
 * Returns: `(id)` when it landed, no row when the claim no longer holds the row.
 */
export const SQL_ACK = `update :"SCHEMA".jobs
set state = 'done', result = $3::text::jsonb, finished_at = now(), lease_expires_at = null
where id = $1::text and claim_token = $2::text and state = 'running'
returning id`;

/**
 * SQL_ACK_MANY — SQL_ACK for a batch: the driver gathers the acks that arrive while earlier
 * batches commit into one statement (one round trip and one commit for many jobs), each fenced on
 * its own token. An (id, token) pair given twice lands once.
 *
 * Params: arrays of equal length — `$1` job ids, `$2` claim tokens, `$3` results (JSON text).
 * Returns: `(acked)` for every ack that landed: its 1-based position in the arrays.
 */
export const SQL_ACK_MANY = `update :"SCHEMA".jobs j
set state = 'done', result = a.result::jsonb, finished_at = now(), lease_expires_at = null
from unnest($1::text[], $2::text[], $3::text[]) with ordinality as a(id, token, result, ord)
where j.id = a.id and j.claim_token = a.token and j.state = 'running'
returning a.ord::int as acked`;
