import { createHash } from 'node:crypto';
import { pgError } from './errors.js';

/** The schema every table lives in unless `schema` says otherwise. */
export const DEFAULT_SCHEMA = 'x_jobs';

/**
 * Checks a schema name once, at construction: a non-empty string of at most 63 bytes (PostgreSQL
 * truncates longer identifiers silently) without NUL. Any other character is fine: it is quoted.
 */
export function validateSchemaName(schema: unknown): string {
  if (typeof schema !== 'string' || schema.length === 0 || schema.includes('\0')) {
    throw pgError('X_PG_OPTIONS_INVALID', 'schema: must be a non-empty string without NUL.', {
      field: 'schema',
    });
  }
  if (Buffer.byteLength(schema, 'utf8') > 63) {
    throw pgError('X_PG_OPTIONS_INVALID', 'schema: PostgreSQL identifiers hold at most 63 bytes.', {
      field: 'schema',
    });
  }
  return schema;
}

/** `"name"` with embedded double quotes doubled: a safe identifier for any string. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `'text'` with embedded single quotes doubled (standard_conforming_strings is on since 9.1). */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The NOTIFY channel of settle wakes (`settle-notify.sql.ts`): `<schema>:settled`, or, when that
 * passes PostgreSQL's 63-byte identifier limit, `x_jobs_settled_` and 16 hex digits of the
 * schema's SHA-1 (a long schema name still gets a channel of its own).
 */
export function settledChannel(schema: string): string {
  const plain = `${schema}:settled`;
  if (Buffer.byteLength(plain, 'utf8') <= 63) return plain;
  return `x_jobs_settled_${createHash('sha1').update(schema).digest('hex').slice(0, 16)}`;
}

/**
 * Substitutes the schema into a statement written with psql's variable syntax: `:"SCHEMA"`
 * becomes the quoted identifier, `:'SCHEMA'` the quoted literal (the wake channel) and
 * `:'SETTLED_CHANNEL'` the settle wake's channel ({@link settledChannel}). The same text runs in
 * psql after `\set SCHEMA x_jobs` and `\set SETTLED_CHANNEL x_jobs:settled`.
 */
export function bindSchema(statement: string, schema: string): string {
  return statement
    .replaceAll(':"SCHEMA"', quoteIdent(schema))
    .replaceAll(":'SCHEMA'", quoteLiteral(schema))
    .replaceAll(":'SETTLED_CHANNEL'", quoteLiteral(settledChannel(schema)));
}
