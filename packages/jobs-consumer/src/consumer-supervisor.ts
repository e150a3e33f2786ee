import type { ArmJob } from './arm-job.js';
import type { ConsumerHandle } from './consumer.js';
import { consumerRecord } from './consumer-registry.js';

/**
 * A task definition, shaped for `@x/jobs-scheduler`'s `task()`: `task(consumerSupervisor(c))`.
 * This package imports only `@x/jobs-core`, so it hands over the data and the app (which already
 * runs a scheduler) builds the task: the leader lease, catch-up and the watermark stay the
 * scheduler's, and a consumer never needs a second cron engine.
 */
export interface ConsumerSupervisorTask {
  /** `<name>.supervisor`. */
  readonly name: string;
  /** Fires every `rearm` (`'* * * * *'` for the default `'1m'`). */
  readonly cron: string;
  /** Always `'UTC'`: an interval has no wall-clock meaning. */
  readonly tz: 'UTC';
  /** A missed round is not worth replaying: the next one arms the same keys. */
  readonly catchUp: 'skip';
  /** Each occurrence enqueues the consumer's arm job. */
  readonly enqueue: () => readonly [readonly [ArmJob, Record<string, never>]];
}

/**
 * The arm job of a consumer (`<name>.arm`): export it beside the consumer so `defineJobs` registers
 * it and a worker runs it. Each run enqueues every key of `keys()`; live keys dedupe, settled or
 * dead ones restart from their saved cursor. `consumerArm(c).enqueue({})` arms at boot too.
 * A handle not made by `consumer()` is `X_CONSUMER_INVALID`.
 */
export function consumerArm(handle: ConsumerHandle): ArmJob {
  return consumerRecord(handle).arm;
}

/**
 * The supervisor of a consumer, as a task definition to pass to `@x/jobs-scheduler`'s `task()`:
 * `export const syncOrdersSupervisor = task(consumerSupervisor(syncOrders))`.
 */
export function consumerSupervisor(handle: ConsumerHandle): ConsumerSupervisorTask {
  const { consumer, arm } = consumerRecord(handle);
  return {
    name: `${consumer.name}.supervisor`,
    cron: consumer.rearmCron,
    tz: 'UTC',
    catchUp: 'skip',
    enqueue: () => [[arm, {}]] as const,
  };
}
