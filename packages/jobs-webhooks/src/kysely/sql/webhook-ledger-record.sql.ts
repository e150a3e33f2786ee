/**
 * Inserts one attempt and answers the endpoint's failed attempts since its last delivered one,
 * counted over the rows before this insert (a statement does not see its own CTE's insert), so
 * the caller adds this row itself. Returns one row `{ failures_before: number }`.
 * Params: $1 endpoint_id, $2 event_id, $3 job_id, $4 attempt, $5 status, $6 response_code,
 * $7 duration_ms, $8 started_at (epoch ms), $9 error_code, $10 the failed statuses (text[]).
 */
export const SQL_WEBHOOK_LEDGER_RECORD = `
with inserted as (
  insert into {attempts}
    (endpoint_id, event_id, job_id, attempt, status, response_code, duration_ms, started_at, error_code)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  returning id
)
select count(*)::int as failures_before
from {attempts} a
where a.endpoint_id = $1
  and a.status = any($10::text[])
  and a.id > coalesce(
    (select max(d.id) from {attempts} d where d.endpoint_id = $1 and d.status = 'delivered'), 0)`;
