import { CompiledQuery, type Kysely, sql } from 'kysely';
import {
  FAILED_ATTEMPT_STATUSES,
  type WebhookDisableReason,
  type WebhookLedger,
} from '../outbound/webhook-ledger.js';
import { SQL_WEBHOOK_LEDGER_DDL } from './sql/webhook-ledger-ddl.sql.js';
import { SQL_WEBHOOK_LEDGER_RECORD } from './sql/webhook-ledger-record.sql.js';

/** Options of {@link kyselyWebhookLedger}. */
export interface KyselyWebhookLedgerOptions {
  /** The schema both tables live in. (Default: 'public') */
  readonly schema?: string;
  /** The attempts table. (Default: 'webhook_attempts') */
  readonly attemptsTable?: string;
  /** The disabled-endpoints table. (Default: 'webhook_disabled_endpoints') */
  readonly disabledTable?: string;
}

/** A Postgres ledger over the app's Kysely instance, plus the DDL of its tables. */
export interface KyselyWebhookLedger extends WebhookLedger {
  /** Creates both tables if they are missing (or run {@link KyselyWebhookLedger.ddl} in your migrations). */
  migrate(): Promise<void>;
  /** The DDL, with this ledger's names substituted. */
  readonly ddl: string;
  /** Re-enables an endpoint (deletes its disabled row). */
  enable(endpointId: string): Promise<void>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A {@link WebhookLedger} in two Postgres tables reached through the app's own Kysely instance
 * (any dialect over Postgres; values always bound, names quoted once). `record` inserts the row and
 * counts the endpoint's failures since its last delivery in one statement; two deliveries to one
 * endpoint failing at the same instant may each count the other's row or not, so a disable can
 * land one failure late — never early.
 */
export function kyselyWebhookLedger(
  // biome-ignore lint/suspicious/noExplicitAny: any app's database type; the ledger names its tables itself.
  db: Kysely<any>,
  options: KyselyWebhookLedgerOptions = {},
): KyselyWebhookLedger {
  const schema = quote(options.schema ?? 'public');
  const attemptsName = options.attemptsTable ?? 'webhook_attempts';
  const attempts = `${schema}.${quote(attemptsName)}`;
  const disabled = `${schema}.${quote(options.disabledTable ?? 'webhook_disabled_endpoints')}`;
  const names = (text: string) =>
    text
      .replaceAll('{attempts_index}', quote(`${attemptsName}_endpoint_idx`))
      .replaceAll('{attempts}', attempts)
      .replaceAll('{disabled}', disabled);
  const recordSql = names(SQL_WEBHOOK_LEDGER_RECORD);
  const ddl = names(SQL_WEBHOOK_LEDGER_DDL);
  const failed = [...FAILED_ATTEMPT_STATUSES];
  return {
    ddl,
    async migrate() {
      await sql.raw(ddl).execute(db);
    },
    async record(row) {
      const params = [
        row.endpointId,
        row.eventId,
        row.jobId,
        row.attempt,
        row.status,
        row.responseCode,
        row.durationMs,
        row.startedAt,
        row.errorCode,
        failed,
      ];
      const result = await db.executeQuery<{ failures_before: number }>(CompiledQuery.raw(recordSql, params));
      const before = result.rows[0]?.failures_before ?? 0;
      if (row.status === 'delivered') return { consecutiveFailures: 0 };
      return { consecutiveFailures: FAILED_ATTEMPT_STATUSES.has(row.status) ? before + 1 : before };
    },
    async disable(endpointId, reason: WebhookDisableReason) {
      await sql`insert into ${sql.raw(disabled)} (endpoint_id, reason, disabled_at)
        values (${endpointId}, ${reason}, ${Date.now()}) on conflict (endpoint_id) do nothing`.execute(db);
    },
    async disabled(endpointId) {
      const { rows } = await sql<{ reason: WebhookDisableReason }>`select reason from ${sql.raw(disabled)}
        where endpoint_id = ${endpointId}`.execute(db);
      return rows[0]?.reason ?? null;
    },
    async enable(endpointId) {
      await sql`delete from ${sql.raw(disabled)} where endpoint_id = ${endpointId}`.execute(db);
    },
  };
}
