import type { Duration, JobRunContext, RetryPolicy } from '@x/jobs-core';

/** What `open` receives: the key, the cursor saved for it (null before the first save) and the run's signal. */
export interface ConsumerOpenArgs<Cursor> {
  readonly key: string;
  readonly cursor: Cursor | null;
  /** Aborted on drain, cancel or a lost lease: end the iterable when it fires. */
  readonly signal: AbortSignal;
}

/** What `handle` receives: one batch of items, in the order the source yielded them. */
export interface ConsumerHandleArgs<Item, Cursor, Tx> {
  readonly key: string;
  /** 1 to `batch` items. */
  readonly items: readonly Item[];
  /** The cursor the batch was read after (null before the first save). */
  readonly cursor: Cursor | null;
  /** The run's signal: hand it to whatever the batch calls. */
  readonly signal: AbortSignal;
  /** The transaction `transaction` opened for this batch (undefined without one). */
  readonly tx: Tx;
  /** The run's context (the app's `JobContext` plus the run's ids). */
  readonly ctx: JobRunContext;
}

/** Where each key's cursor lives: the app's own table. The consumer's only checkpoint. */
export interface ConsumerCursorStore<Cursor, Tx> {
  /** The saved cursor of `key`, or null when none was saved yet. */
  load(key: string): Cursor | null | Promise<Cursor | null>;
  /** Saves `next` for `key`; called after `handle` returned it, inside the same `transaction`. */
  save(key: string, next: Cursor, tx: Tx): void | Promise<void>;
}

/**
 * A consumer declaration: which keys exist, how to read each from a cursor, what to do with a
 * batch, and where the cursor is saved. `Item` is what the source yields, `Cursor` what `handle`
 * answers and the store keeps, `Tx` what `transaction` hands to `handle` and `save`.
 */
export interface ConsumerDefinition<Item, Cursor, Tx = undefined> {
  /** The durable name: the job's queue key and the prefix of every key's idempotency key. Required. */
  readonly name: string;
  /** The org a key's run acts as, or `'none'`. Required, exactly as on `job()`. */
  readonly tenant: ((key: string) => string) | 'none';
  /** Every key that should have a running body; the supervisor arms each. Called at each re-arm. */
  readonly keys: () => readonly string[] | Promise<readonly string[]>;
  /** Opens the source of one key after its saved cursor. The iterable may end (the body then settles) or run forever. */
  readonly open: (args: ConsumerOpenArgs<Cursor>) => AsyncIterable<Item> | Promise<AsyncIterable<Item>>;
  /** Handles one batch and answers the cursor after it. Runs at least once per item: make it idempotent per item. */
  readonly handle: (args: ConsumerHandleArgs<Item, Cursor, Tx>) => Cursor | Promise<Cursor>;
  /** Loads and saves each key's cursor. Required. */
  readonly cursor: ConsumerCursorStore<Cursor, Tx>;
  /**
   * Runs `handle` and `save` of one batch in one transaction of the app's store, so the effect and
   * the cursor commit together or not at all. (Default: none; `handle` and `save` run back to back)
   */
  readonly transaction?: (work: (tx: Tx) => Promise<Cursor>) => Promise<Cursor>;
  /** The most items one `handle` call receives: a positive integer. (Default: 100) */
  readonly batch?: number;
  /** How long a partial batch waits for more items before it is handled anyway. (Default: '1s') */
  readonly flushAfter?: Duration;
  /**
   * How often the supervisor re-arms every key: seconds that divide a minute, minutes that divide
   * an hour, or hours that divide a day (`'30s'`, `'1m'`, `'15m'`, `'1h'`). (Default: '1m')
   */
  readonly rearm?: Duration;
  /** The queue the bodies are claimed from. (Default: 'default') */
  readonly queue?: string;
  /** How a failed body is retried before it is dead (and re-armed by the supervisor). (Default: core's policy) */
  readonly retry?: RetryPolicy;
}

/** What a consumer body answers when its source ended: the batches and items it handled. */
export interface ConsumerRunResult {
  readonly batches: number;
  readonly items: number;
}

/** The input of a consumer job: the key whose body runs. */
export interface ConsumerInput {
  readonly key: string;
}
