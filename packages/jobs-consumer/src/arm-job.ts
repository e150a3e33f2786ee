import { type AnyJobHandle, ENQUEUE_MANY_MAX, type JobHandle, job } from '@x/jobs-core';
import { z } from 'zod';
import { consumerError } from './errors.js';
import type { ResolvedConsumer } from './resolve-consumer.js';

/** What one arm pass answers: how many keys it saw, started, and found already running. */
export interface ArmResult {
  readonly keys: number;
  /** Keys that had no live body and were started from their saved cursor. */
  readonly armed: number;
  /** Keys whose body was live (ready, running, delayed for a retry): their enqueue deduped. */
  readonly live: number;
}

/** The arm job of a consumer: no input, one live pass at a time. */
export type ArmJob = JobHandle<Record<string, never>, ArmResult, Record<string, never>>;

/**
 * The consumer's arm job, `<name>.arm`: enqueues every key `keys()` lists through the consumer's
 * own handle. A live key dedupes onto its running row (so a pass never starts a second body); a
 * key whose body settled or died gets a new row, which resumes from the saved cursor. Keys must be
 * non-empty strings, once each (`X_CONSUMER_INVALID` otherwise: a dead-lettered arm row names the
 * bug instead of half-arming).
 */
export function createArmJob(
  body: AnyJobHandle,
  consumer: Pick<ResolvedConsumer<unknown, unknown, unknown>, 'name' | 'keys' | 'queue'>,
): ArmJob {
  return job({
    name: `${consumer.name}.arm`,
    input: z.object({}).strict(),
    idempotencyKey: () => `consumer-arm:${consumer.name}`,
    tenant: 'none',
    ...(consumer.queue === undefined ? {} : { queue: consumer.queue }),
    run: async (): Promise<ArmResult> => {
      const keys = checkKeys(consumer.name, await consumer.keys());
      let armed = 0;
      for (let start = 0; start < keys.length; start += ENQUEUE_MANY_MAX) {
        const chunk = keys.slice(start, start + ENQUEUE_MANY_MAX).map((key) => ({ key }));
        for (const result of await body.enqueueMany(chunk)) if (!result.deduped) armed += 1;
      }
      return { keys: keys.length, armed, live: keys.length - armed };
    },
  }) as ArmJob;
}

function checkKeys(name: string, keys: unknown): readonly string[] {
  if (!Array.isArray(keys)) {
    throw consumerError('X_CONSUMER_INVALID', `consumer '${name}': keys() must answer an array of strings.`, {
      field: 'keys',
    });
  }
  const seen = new Set<string>();
  for (const key of keys) {
    if (typeof key !== 'string' || key === '' || seen.has(key)) {
      throw consumerError(
        'X_CONSUMER_INVALID',
        `consumer '${name}': keys() must answer distinct non-empty strings.`,
        { field: 'keys' },
      );
    }
    seen.add(key);
  }
  return keys;
}
