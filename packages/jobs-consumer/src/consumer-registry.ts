import type { AnyJobHandle, JobHandle } from '@x/jobs-core';
import type { ArmResult } from './arm-job.js';
import { consumerError } from './errors.js';
import type { ResolvedConsumer } from './resolve-consumer.js';

/** What `consumer()` records beside the handle it answers (the handle itself is core's, frozen). */
export interface ConsumerRecord {
  // biome-ignore lint/suspicious/noExplicitAny: any item, cursor and transaction type.
  readonly consumer: ResolvedConsumer<any, any, any>;
  readonly arm: JobHandle<Record<string, never>, ArmResult, Record<string, never>>;
}

const records = new WeakMap<object, ConsumerRecord>();

/** Records a consumer's resolved definition and arm job against its handle. */
export function recordConsumer(
  handle: AnyJobHandle,
  consumer: ConsumerRecord['consumer'],
  arm: ConsumerRecord['arm'],
): void {
  records.set(handle, { consumer, arm });
}

/** The record of a handle made by `consumer()`; anything else is `X_CONSUMER_INVALID`. */
export function consumerRecord(handle: unknown): ConsumerRecord {
  const record = typeof handle === 'object' && handle !== null ? records.get(handle) : undefined;
  if (record === undefined) {
    throw consumerError('X_CONSUMER_INVALID', 'Expected a handle made by consumer(); got something else.', {
      field: 'handle',
    });
  }
  return record;
}
