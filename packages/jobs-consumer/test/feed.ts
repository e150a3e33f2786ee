/** A test source: an append-only list of numbered items, read after a cursor (the last id handled). */
export interface Item {
  readonly id: number;
}

/** An in-memory feed per key, plus a cursor store and a log of handled batches, for consumer tests. */
export function testFeed(initial: Record<string, number>) {
  const feeds = new Map<string, Item[]>(
    Object.entries(initial).map(([key, count]) => [
      key,
      Array.from({ length: count }, (_, i) => ({ id: i + 1 })),
    ]),
  );
  const cursors = new Map<string, number>();
  const handled: { key: string; ids: number[] }[] = [];
  return {
    feeds,
    cursors,
    handled,
    /** Every id handled for `key`, in order, duplicates kept. */
    idsOf: (key: string) => handled.filter((b) => b.key === key).flatMap((b) => b.ids),
    /** A finite iterable over the key's items after `cursor`. */
    async *since(key: string, cursor: number | null): AsyncIterable<Item> {
      for (const item of feeds.get(key) ?? []) if (item.id > (cursor ?? 0)) yield item;
    },
    store: {
      load: (key: string) => cursors.get(key) ?? null,
      save: (key: string, next: number) => {
        cursors.set(key, next);
      },
    },
  };
}

/** Polls `check` until it holds (real time, generous for a loaded machine). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A unique name for this test file's declarations. */
export function unique(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}
