export type { KyselyOutboxStore, KyselyOutboxStoreOptions } from './kysely-outbox-store.js';
export { kyselyOutboxStore } from './kysely-outbox-store.js';
export { migrateOutbox, outboxMigrationSql } from './migrate-outbox.js';
export type { OutboxTableOptions } from './outbox-table.js';
export type { ListenClient, ListenPool, PgOutboxWakeOptions } from './pg-outbox-wake.js';
export { pgOutboxWake } from './pg-outbox-wake.js';
