import type { JobRunContext } from '@x/jobs-core';
import { BatchReader } from './batch-reader.js';
import type { ConsumerRunResult } from './consumer-definition.js';
import type { ResolvedConsumer } from './resolve-consumer.js';

/** What one consumer body needs from the run. */
export interface ConsumerRun {
  readonly key: string;
  readonly ctx: JobRunContext;
  /** Reports items handled so far (`x-jobs show`). */
  readonly progress: (current: number) => void;
}

/**
 * One key's body: load the saved cursor, open the source after it, then batch after batch run
 * `handle` and save the cursor it answered (inside `transaction` when one is declared). It stops
 * when the source ends (answering the counts) or when `ctx.signal` aborts (rethrowing its reason,
 * so a drain hands the row back uncounted). A batch whose `handle` had not returned when the
 * signal fired is not saved — the next body reads it again: at least once per item.
 */
export async function runConsumerBody<Item, Cursor, Tx>(
  consumer: ResolvedConsumer<Item, Cursor, Tx>,
  run: ConsumerRun,
): Promise<ConsumerRunResult> {
  const { key, ctx } = run;
  const { signal } = ctx;
  let cursor: Cursor | null = (await consumer.cursor.load(key)) ?? null;
  signal.throwIfAborted();
  const source = await consumer.open({ key, cursor, signal });
  const reader = new BatchReader(source[Symbol.asyncIterator]());
  let batches = 0;
  let items = 0;
  try {
    for (;;) {
      const batch = await reader.next(consumer.batch, consumer.flushAfterMs, signal);
      if (batch.items.length > 0) {
        cursor = await handleBatch(consumer, { key, ctx, items: batch.items, cursor });
        batches += 1;
        items += batch.items.length;
        run.progress(items);
      }
      if (batch.done) return { batches, items };
    }
  } finally {
    reader.close();
  }
}

interface BatchArgs<Item, Cursor> {
  readonly key: string;
  readonly ctx: JobRunContext;
  readonly items: readonly Item[];
  readonly cursor: Cursor | null;
}

/** Runs `handle` for one batch and saves its cursor, in one transaction when the consumer has one. */
async function handleBatch<Item, Cursor, Tx>(
  consumer: ResolvedConsumer<Item, Cursor, Tx>,
  batch: BatchArgs<Item, Cursor>,
): Promise<Cursor> {
  const { signal } = batch.ctx;
  const work = async (tx: Tx): Promise<Cursor> => {
    signal.throwIfAborted();
    const next = await consumer.handle({ ...batch, signal, tx });
    // Past the abort the batch is not saved: a drained or lost run must not move the cursor.
    signal.throwIfAborted();
    await consumer.cursor.save(batch.key, next, tx);
    return next;
  };
  return consumer.transaction === undefined ? work(undefined as Tx) : consumer.transaction(work);
}
