/**
 * The ledger's two tables, for the app's own migration (this package runs no DDL by itself).
 * `<attempts>` holds one row per delivery attempt, `<disabled>` one row per disabled endpoint.
 * Params: none; `{attempts}` and `{disabled}` are replaced by the quoted, schema-qualified names.
 */
export const SQL_WEBHOOK_LEDGER_DDL = `
create table if not exists {attempts} (
  id bigserial primary key,
  endpoint_id text not null,
  event_id text not null,
  job_id text not null,
  attempt integer not null,
  status text not null,
  response_code integer,
  duration_ms integer not null,
  started_at bigint not null,
  error_code text
);
create index if not exists {attempts_index} on {attempts} (endpoint_id, id);
create table if not exists {disabled} (
  endpoint_id text primary key,
  reason text not null,
  disabled_at bigint not null
);`;
