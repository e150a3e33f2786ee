import type { JsonValue } from '@x/jobs-core';
import type { JobTestHarness } from '@x/jobs-driver-memory/testing';
import type { BackfillPage } from '../src/backfill-page.js';
import type { PaceTimer } from '../src/pace-timer.js';

/** A row of the in-memory table the backfill tests sweep. */
export interface Item {
  readonly id: number;
}

/** Items with ids 1..count. */
export const items = (count: number): Item[] => Array.from({ length: count }, (_, i) => ({ id: i + 1 }));

/** Keyset pages over an in-memory table, recording every cursor asked for. */
export function pagesOver(table: readonly Item[], asked: (JsonValue | null)[] = []) {
  return async ({
    cursor,
    batch,
  }: {
    cursor: JsonValue | null;
    batch: number;
  }): Promise<BackfillPage<Item>> => {
    asked.push(cursor);
    const after = typeof cursor === 'number' ? cursor : 0;
    const rows = table.filter((row) => row.id > after).slice(0, batch);
    const last = rows.at(-1);
    const more = last !== undefined && table.some((row) => row.id > last.id);
    return { rows, next: more ? last.id : null };
  };
}

/** A timer on a harness's virtual clock: a sleep moves the clock and is recorded. */
export function virtualTimer(h: () => JobTestHarness | undefined, sleeps: number[]): PaceTimer {
  return {
    now: () => h()?.clock.now() ?? 0,
    async sleep(ms) {
      sleeps.push(ms);
      const harness = h();
      harness?.clock.set(harness.clock.now() + ms);
    },
  };
}

let counter = 0;
/** A name no other test in the process uses. */
export const unique = (label: string): string => `${label}-${process.pid}-${++counter}`;
