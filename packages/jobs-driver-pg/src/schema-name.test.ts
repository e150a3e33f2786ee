import { describe, expect, it } from 'vitest';
import { bindSchema, quoteIdent, quoteLiteral, validateSchemaName } from './schema-name.js';

describe('schema names', () => {
  it('quotes identifiers and literals by doubling the quote', () => {
    expect(quoteIdent('x_jobs')).toBe('"x_jobs"');
    expect(quoteIdent('a"b')).toBe('"a""b"');
    expect(quoteLiteral("it's")).toBe("'it''s'");
  });

  it('binds the psql-style placeholders: :"SCHEMA" as identifier, :\'SCHEMA\' as literal', () => {
    const bound = bindSchema(`select pg_notify(:'SCHEMA', $1::text) from :"SCHEMA".jobs`, `o'dd "one"`);
    expect(bound).toBe(`select pg_notify('o''dd "one"', $1::text) from "o'dd ""one""".jobs`);
  });

  it.each([
    ['empty', ''],
    ['with NUL', 'a\0b'],
    ['over 63 bytes', 'é'.repeat(32)],
    ['not a string', 42],
  ])('refuses a schema %s with X_PG_OPTIONS_INVALID', (_label, schema) => {
    let code: unknown;
    try {
      validateSchemaName(schema);
    } catch (error) {
      code = (error as { code?: unknown }).code;
    }
    expect(code).toBe('X_PG_OPTIONS_INVALID');
  });

  it('accepts any other name of up to 63 bytes', () => {
    expect(validateSchemaName('x'.repeat(63))).toBe('x'.repeat(63));
    expect(validateSchemaName(`it's "fine"`)).toBe(`it's "fine"`);
  });
});
