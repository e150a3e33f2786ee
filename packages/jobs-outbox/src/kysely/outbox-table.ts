import { outboxError } from '../errors.js';

/** Where the outbox table lives: options shared by `kyselyOutboxStore`, `migrateOutbox` and the DDL. */
export interface OutboxTableOptions {
  /** The schema of the outbox table; created by `migrateOutbox` when given. (Default: the search_path, usually `public`) */
  readonly schema?: string;
  /** The outbox table's name. (Default: 'x_jobs_outbox') */
  readonly table?: string;
}

/** A resolved outbox table: every name validated and quoted once, ready to substitute into SQL. */
export interface OutboxTable {
  /** `"schema"."table"` or `"table"`. */
  readonly qualified: string;
  /** The quoted schema, or undefined for the search_path. */
  readonly quotedSchema: string | undefined;
  /** The unquoted table name, the prefix of its index names. */
  readonly table: string;
  /** The NOTIFY channel staging signals on commit: the table's name. */
  readonly channel: string;
  /** The text hashed into the advisory lock that serializes claims (and migrations) on this table. */
  readonly lockKey: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;

/** Validates and quotes the schema and table names; `X_OUTBOX_OPTIONS_INVALID` for anything but a plain identifier. */
export function resolveOutboxTable(options: OutboxTableOptions = {}): OutboxTable {
  const table = options.table ?? 'x_jobs_outbox';
  const schema = options.schema;
  for (const [field, value] of [
    ['table', table],
    ['schema', schema],
  ] as const) {
    if (value !== undefined && !IDENTIFIER.test(value)) {
      throw outboxError(
        'X_OUTBOX_OPTIONS_INVALID',
        `outbox ${field}: must be a plain identifier of at most 48 characters (letters, digits, _).`,
        { field },
      );
    }
  }
  const quotedSchema = schema === undefined ? undefined : `"${schema}"`;
  return {
    qualified: quotedSchema === undefined ? `"${table}"` : `${quotedSchema}."${table}"`,
    quotedSchema,
    table,
    channel: table,
    lockKey: `x-jobs-outbox:${schema ?? ''}.${table}`,
  };
}
