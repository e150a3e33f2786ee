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
 * Substitutes the schema into a statement written with psql's variable syntax: `:"SCHEMA"`
 * becomes the quoted identifier and `:'SCHEMA'` the quoted literal (the NOTIFY channel). The same
 * text runs in psql after `\set SCHEMA x_jobs`.
 */
export function bindSchema(statement: string, schema: string): string {
  return statement.replaceAll(':"SCHEMA"', quoteIdent(schema)).replaceAll(":'SCHEMA'", quoteLiteral(schema));
}
