export type { KyselyOutboxStore, KyselyOutboxStoreOptions } from './kysely-outbox-store.js';
export { kyselyOutboxStore } from './kysely-outbox-store.js';
export { migrateOutbox, outboxMigrationSql } from './migrate-outbox.js';
export type { OutboxTableOptions } from './outbox-table.js';
export type { ListenClient, ListenPool } from './pg-outbox-wake.js';
