import type { Migration } from './migration.js';

/**
 * The service fair queues gave (`QueueOptions.fairness`, see SQL_CLAIM_FAIR): `fair_queues` holds
 * one row per fair queue, its virtual `clock` (the start tag of the last row a fair claim took, in
 * service units) — a fair claim locks it, so the claims of one fair queue are serialized and each
 * sees the service the one before it gave; `fair_served` one row per (queue, tenant) that was
 * ever served, its counter `served` (a null tenant is `''`). Rows are small and bounded by the
 * tenants a queue served; enqueues and the default claim never touch them.
 */
export const MIGRATION_0007_FAIR_SERVICE: Migration = {
  version: 7,
  name: 'fair-service',
  statements: [
    `create table :"SCHEMA".fair_queues (
  queue text primary key,
  clock bigint not null default 0
)`,
    `create table :"SCHEMA".fair_served (
  queue text not null,
  tenant text not null,
  served bigint not null,
  primary key (queue, tenant)
)`,
  ],
};
