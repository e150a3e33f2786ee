import type { JobRunContext, JsonValue } from '@x/jobs-core';
import type { BackfillPage, BackfillPagesArgs } from './backfill-page.js';

/**
 * The part of a Kysely `SelectQueryBuilder` a keyset page uses. Kysely's builder satisfies it
 * structurally, so this package neither imports Kysely at run time nor names its types: an app
 * without Kysely installs nothing extra and still type-checks.
 */
export interface KeysetQuery<Row> {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's overloads take typed references; any keeps the structural match.
  where(...args: any[]): KeysetQuery<Row>;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  orderBy(...args: any[]): KeysetQuery<Row>;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  limit(...args: any[]): KeysetQuery<Row>;
  execute(): Promise<Row[]>;
}

/** A source over an SQL table: a select query plus the unique, ordered column it pages on. */
export interface KeysetSource<Row, Input> {
  /**
   * Builds the select (filters and columns, no `orderBy` or `limit`: the page adds them). Called
   * once per page, so it may read `ctx` (the app's database handle).
   */
  readonly query: (args: { readonly ctx: JobRunContext; readonly input: Input }) => KeysetQuery<Row>;
  /**
   * The key column, as the query references it (`'id'` or `'orgs.id'`): unique and never null.
   * Pages are `where key > cursor order by key limit batch + 1`: keyset, never OFFSET.
   */
  readonly key: string;
  /** The cursor of a row. (Default: the selected field named like the key's last segment) */
  readonly cursorOf?: (row: Row) => JsonValue;
}

/**
 * Turns a {@link KeysetSource} into a `pages` function. It reads `batch + 1` rows so the last
 * page is known without an extra empty query: `next` is the key of the page's last row when a
 * further row exists, else `null`.
 */
export function keysetPages<Row, Input>(
  source: KeysetSource<Row, Input>,
): (args: BackfillPagesArgs<Input>) => Promise<BackfillPage<Row>> {
  const field = source.key.split('.').at(-1) ?? source.key;
  const cursorOf = source.cursorOf ?? ((row: Row) => (row as Record<string, JsonValue>)[field] ?? null);
  return async ({ cursor, ctx, input, batch }) => {
    let query = source.query({ ctx, input });
    if (cursor !== null) query = query.where(source.key, '>', cursor);
    const found = await query
      .orderBy(source.key)
      .limit(batch + 1)
      .execute();
    const more = found.length > batch;
    const rows = more ? found.slice(0, batch) : found;
    const last = rows.at(-1);
    return { rows, next: more && last !== undefined ? cursorOf(last) : null };
  };
}
