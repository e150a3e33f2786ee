export type { KyselyWebhookLedger, KyselyWebhookLedgerOptions } from './kysely-webhook-ledger.js';
export { kyselyWebhookLedger } from './kysely-webhook-ledger.js';
export { SQL_WEBHOOK_LEDGER_DDL } from './sql/webhook-ledger-ddl.sql.js';
export { SQL_WEBHOOK_LEDGER_RECORD } from './sql/webhook-ledger-record.sql.js';
