import { type JobHandle, job } from '@x/jobs-core';
import { z } from 'zod';
import { createArmJob } from './arm-job.js';
import type { ConsumerDefinition, ConsumerInput, ConsumerRunResult } from './consumer-definition.js';
import { runConsumerBody } from './consumer-loop.js';
import { recordConsumer } from './consumer-registry.js';
import { registerConsumerRetryClasses } from './errors.js';
import { resolveConsumer } from './resolve-consumer.js';
import { refuseSelfEnqueue, runAsBody } from './self-enqueue-guard.js';

/** A consumer's job handle: `enqueue({ key })` arms one key; `defineJobs` registers it like any job. */
export type ConsumerHandle = JobHandle<ConsumerInput, ConsumerRunResult, ConsumerInput>;

const consumerInput = z.object({ key: z.string().min(1) });

/**
 * Declares a stream consumer: a job whose body, one per key, reads the key's source after its
 * saved cursor and hands it to `handle` in batches, saving the cursor `handle` answers after
 * each. Guarantees:
 * - one running body per key: the idempotency key is `consumer:<name>:<key>`, so arming a live key
 *   dedupes onto its row;
 * - no attempt timeout (a `timeout` field is `X_CONSUMER_INVALID`): the body runs until the source
 *   ends or `ctx.signal` aborts; on a drain it stops between batches and the row goes back uncounted;
 * - at least once per item: a batch is saved only after `handle` returned, and never past the abort;
 * - a body that enqueues its own key is refused (`X_CONSUMER_SELF_ENQUEUE`);
 * - keys that settled or died are re-armed by the supervisor: {@link consumerArm} (a job to
 *   register) fired by {@link consumerSupervisor} (a task definition for `@x/jobs-scheduler`).
 *
 * Every field is checked here (`X_CONSUMER_INVALID`, `meta.field`).
 */
export function consumer<Item, Cursor, Tx = undefined>(
  definition: ConsumerDefinition<Item, Cursor, Tx>,
): ConsumerHandle {
  registerConsumerRetryClasses();
  const resolved = resolveConsumer(definition);
  const { name, tenant } = resolved;
  const handle = job({
    name,
    input: consumerInput,
    idempotencyKey: ({ key }) => {
      refuseSelfEnqueue(name, key);
      return `consumer:${name}:${key}`;
    },
    tenant: tenant === 'none' ? 'none' : ({ key }) => tenant(key),
    ...(resolved.queue === undefined ? {} : { queue: resolved.queue }),
    ...(resolved.retry === undefined ? {} : { retry: resolved.retry }),
    run: ({ input, ctx, progress }): Promise<ConsumerRunResult> =>
      runAsBody(name, input.key, () => runConsumerBody(resolved, { key: input.key, ctx, progress })),
  });
  recordConsumer(handle, resolved, createArmJob(handle, resolved));
  return handle;
}
