import { parseDuration, type RetryPolicy } from '@x/jobs-core';
import type { ConsumerCursorStore, ConsumerDefinition } from './consumer-definition.js';
import { consumerError } from './errors.js';
import { rearmCron } from './rearm-cron.js';

/** A checked consumer definition, defaults applied: what the body and the supervisor read. */
export interface ResolvedConsumer<Item, Cursor, Tx> {
  readonly name: string;
  readonly tenant: ((key: string) => string) | 'none';
  readonly keys: ConsumerDefinition<Item, Cursor, Tx>['keys'];
  readonly open: ConsumerDefinition<Item, Cursor, Tx>['open'];
  readonly handle: ConsumerDefinition<Item, Cursor, Tx>['handle'];
  readonly cursor: ConsumerCursorStore<Cursor, Tx>;
  readonly transaction: ConsumerDefinition<Item, Cursor, Tx>['transaction'];
  readonly batch: number;
  readonly flushAfterMs: number;
  /** The supervisor's cron pattern, read in UTC. */
  readonly rearmCron: string;
  readonly queue: string | undefined;
  readonly retry: RetryPolicy | undefined;
}

/** The default most items per `handle` call. */
export const DEFAULT_CONSUMER_BATCH = 100;
/** The default wait of a partial batch, in ms. */
export const DEFAULT_CONSUMER_FLUSH_AFTER_MS = 1_000;
/** The default re-arm interval. */
export const DEFAULT_CONSUMER_REARM = '1m';

/**
 * Checks a consumer definition at declaration; every refusal is `X_CONSUMER_INVALID` naming the
 * field in `meta.field`. A `timeout` is refused: a consumer body runs until its source ends or the
 * worker drains, and an attempt deadline would kill it mid-stream on every attempt.
 */
export function resolveConsumer<Item, Cursor, Tx>(
  definition: ConsumerDefinition<Item, Cursor, Tx>,
): ResolvedConsumer<Item, Cursor, Tx> {
  if (typeof definition !== 'object' || definition === null) {
    throw invalid('definition', 'consumer(): expected a definition object.');
  }
  const { name, tenant, keys, open, handle, cursor, transaction } = definition;
  if (typeof name !== 'string' || name.trim() === '')
    throw invalid('name', 'name: required, a non-empty string.');
  if (tenant !== 'none' && typeof tenant !== 'function') {
    throw invalid('tenant', "tenant: required, (key) => orgId or 'none'.");
  }
  for (const [field, value] of [
    ['keys', keys],
    ['open', open],
    ['handle', handle],
  ] as const) {
    if (typeof value !== 'function') throw invalid(field, `${field}: required, a function.`);
  }
  if (
    typeof cursor !== 'object' ||
    cursor === null ||
    typeof cursor.load !== 'function' ||
    typeof cursor.save !== 'function'
  ) {
    throw invalid('cursor', 'cursor: required, { load(key), save(key, next, tx) }.');
  }
  if (transaction !== undefined && typeof transaction !== 'function') {
    throw invalid('transaction', 'transaction: when given, a function (work) => Promise.');
  }
  if ('timeout' in definition) {
    throw invalid(
      'timeout',
      'timeout: a consumer has none; its body runs until the source ends or the worker drains.',
    );
  }
  return {
    name,
    tenant,
    keys,
    open,
    handle,
    cursor,
    transaction,
    batch: readBatch(definition.batch),
    flushAfterMs: readDuration('flushAfter', definition.flushAfter, DEFAULT_CONSUMER_FLUSH_AFTER_MS),
    rearmCron: rearmCron(definition.rearm ?? DEFAULT_CONSUMER_REARM),
    queue: definition.queue,
    retry: definition.retry,
  };
}

function readBatch(batch: unknown): number {
  if (batch === undefined) return DEFAULT_CONSUMER_BATCH;
  if (typeof batch !== 'number' || !Number.isSafeInteger(batch) || batch < 1) {
    throw invalid('batch', `batch: a positive integer, got ${String(batch)}.`);
  }
  return batch;
}

function readDuration(field: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  try {
    return parseDuration(value as never);
  } catch {
    throw invalid(field, `${field}: a positive duration ('500ms', '1s'), got ${String(value)}.`);
  }
}

function invalid(field: string, message: string) {
  return consumerError('X_CONSUMER_INVALID', message, { field });
}
