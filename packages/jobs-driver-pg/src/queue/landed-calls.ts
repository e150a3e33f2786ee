import { CallBatcher } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';

/** One fenced call of a batched statement: the row and the claim token it is fenced on. */
export interface FencedCall {
  readonly id: string;
  readonly token: string;
}

/**
 * Per call of a batch, whether it landed, from the 1-based positions the batched statement
 * answered (SQL_ACK_MANY, SQL_START_MANY). An (id, token) pair given twice lands once: its first
 * occurrence answers true, the repeats false, whichever position the statement named.
 */
export function landedCalls(items: readonly FencedCall[], positions: readonly number[]): boolean[] {
  const landed = new Set<string>();
  for (const position of positions) {
    const item = items[position - 1];
    if (item !== undefined) landed.add(`${item.id}\u0000${item.token}`);
  }
  return items.map((item) => landed.delete(`${item.id}\u0000${item.token}`));
}

/**
 * A batched, fenced statement pair: `one` for a batch of a single call (the plain statement, its
 * plan simplest), `many` for the rest (parallel arrays, answering `landed`/`acked` positions).
 */
export interface FencedStatements<Item extends FencedCall> {
  readonly one: (item: Item) => readonly [statement: string, params: readonly unknown[]];
  readonly many: (items: readonly Item[]) => readonly [statement: string, params: readonly unknown[]];
  /** The column of `many`'s rows that holds a landed call's 1-based position (default `landed`). */
  readonly positions?: string;
}

/**
 * A {@link CallBatcher} of fenced calls: the calls gathered while earlier batches run leave as one
 * statement (at most 1,000 per statement, `maxInFlight` statements at once); each answers whether
 * it landed ({@link landedCalls}: an (id, token) pair given twice lands once).
 */
export function fencedBatch<Item extends FencedCall>(
  ctx: DriverContext,
  statements: FencedStatements<Item>,
  maxInFlight: number,
): CallBatcher<Item, boolean> {
  return new CallBatcher<Item, boolean>(
    async (items) => {
      if (items.length === 1) {
        const [statement, params] = statements.one(items[0] as Item);
        return [(await ctx.query(statement, params)).length > 0];
      }
      const [statement, params] = statements.many(items);
      const rows = await ctx.query<Record<string, number>>(statement, params);
      const column = statements.positions ?? 'landed';
      return landedCalls(
        items,
        rows.map((row) => Number(row[column])),
      );
    },
    1000,
    maxInFlight,
  );
}

/** The given fields of every item, as the parallel arrays of a batched statement. */
export function columnsOf<Item, Key extends keyof Item>(
  items: readonly Item[],
  keys: readonly Key[],
): unknown[][] {
  return keys.map((key) => items.map((item) => item[key]));
}
