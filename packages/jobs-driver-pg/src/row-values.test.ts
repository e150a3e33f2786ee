import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../test/database-url.js';
import { arrayLiteral } from './row-values.js';

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
afterAll(async () => {
  await pool.end();
});

describe('arrayLiteral', () => {
  it('round-trips strings Postgres would misread unquoted, nulls and numbers', async () => {
    const strings = [
      '',
      'NULL',
      'null',
      'a,b',
      '{x}',
      ' lead',
      'trail ',
      'q"uote',
      'back\\slash',
      '\\"',
      'ünï €',
      '{"i":1}',
    ];
    const text = await pool.query<{ v: (string | null)[] }>('select $1::text[] as v', [
      arrayLiteral([...strings, null]),
    ]);
    expect(text.rows[0]?.v).toEqual([...strings, null]);
    const numbers = await pool.query<{ i: number[]; f: (number | null)[] }>(
      'select $1::int[] as i, $2::float8[] as f',
      [arrayLiteral([0, -3, 2147483647]), arrayLiteral([1796170519753.5, null, 0.1])],
    );
    expect(numbers.rows[0]?.i).toEqual([0, -3, 2147483647]);
    expect(numbers.rows[0]?.f).toEqual([1796170519753.5, null, 0.1]);
  });

  it('writes exactly what node-postgres writes for strings', () => {
    expect(arrayLiteral(['a', 'b"c', 'd\\e', null])).toBe('{"a","b\\"c","d\\\\e",NULL}');
    expect(arrayLiteral([])).toBe('{}');
  });
});
