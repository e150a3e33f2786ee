import type { JobRunContext } from '@x/jobs-core';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { keysetPages } from './keyset-source.js';

interface Db {
  posts: { id: string; title: string; published: boolean };
}

/** Kysely over a driver that answers no rows, logging every statement it would send. */
function recordingDb(statements: { sql: string; parameters: readonly unknown[] }[]): Kysely<Db> {
  return new Kysely<Db>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
}

describe('keysetPages', () => {
  it('pages by key: where key > cursor, order by key, limit batch + 1, never an offset', async () => {
    const statements: { sql: string; parameters: readonly unknown[] }[] = [];
    const db = recordingDb(statements);
    const pages = keysetPages<{ id: string; title: string }, undefined>({
      query: () => db.selectFrom('posts').select(['id', 'title']).where('published', '=', true),
      key: 'posts.id',
    });
    const args = {
      signal: new AbortController().signal,
      input: undefined,
      batch: 500,
      ctx: {} as JobRunContext,
    };
    expect(await pages({ ...args, cursor: null })).toEqual({ rows: [], next: null });
    await pages({ ...args, cursor: "o'brien" });
    expect(statements.map((statement) => statement.sql)).toEqual([
      'select "id", "title" from "posts" where "published" = $1 order by "posts"."id" limit $2',
      'select "id", "title" from "posts" where "published" = $1 and "posts"."id" > $2 order by "posts"."id" limit $3',
    ]);
    expect(statements[1]?.parameters).toEqual([true, "o'brien", 501]);
    expect(statements.some((statement) => /offset/i.test(statement.sql))).toBe(false);
  });

  it('answers a page of batch rows and the key of its last row while a further row exists', async () => {
    const rows = [{ id: 1 }, { id: 2 }, { id: 3 }];
    const fake = {
      where: () => fake,
      orderBy: () => fake,
      limit: () => fake,
      execute: async () => rows,
    };
    const pages = keysetPages<{ id: number }, undefined>({ query: () => fake, key: 'id' });
    const args = {
      signal: new AbortController().signal,
      input: undefined,
      ctx: {} as JobRunContext,
      cursor: null,
    };
    expect(await pages({ ...args, batch: 2 })).toEqual({ rows: [{ id: 1 }, { id: 2 }], next: 2 });
    expect(await pages({ ...args, batch: 3 })).toEqual({ rows, next: null });
  });
});
