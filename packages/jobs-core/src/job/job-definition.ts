import type { z } from 'zod';
import type { RetryPolicy } from '../retry/retry-policy.js';
import type { Duration } from '../values/duration.js';
import type { RunArgs } from './run-args.js';
import type { Settled } from './settled.js';

/** Fleet-wide concurrency of a job, held as lease rows in `driver.leases`. */
export interface JobConcurrency<Input> {
  /** Splits the cap per key (e.g. per account). (Default: one cap for the whole job) */
  readonly key?: (input: Input) => string;
  /** Runs allowed at once per key across every worker: a positive integer. */
  readonly limit: number;
  /**
   * Over the cap: `'wait'` defers the run without burning an attempt; `'fail'` fails it with
   * `X_JOB_CONCURRENCY_BUSY`. (Default: 'wait')
   */
  readonly whenBusy?: 'wait' | 'fail';
}

/**
 * A fleet-wide rate limit of a job, held by the driver (`driver.rateLimits`) across every worker
 * process: at most `limit` runs start in any window of `per`, e.g. `{ key: ({ apiKey }) => apiKey,
 * limit: 100, per: '1m' }` for 100 calls a minute per partner API key. A run over the limit is
 * deferred (its row goes back with its run time moved to when the window allows it): never
 * dropped, never charged an attempt.
 */
export interface JobRateLimit<Input> {
  /**
   * The budget a run takes from: a string, or a function of the input. Jobs naming one key share
   * one budget (each checks its own `limit` against it). (Default: one budget for the job)
   */
  readonly key?: string | ((input: Input) => string);
  /** Runs allowed to start in any window of `per`: an integer from 1 to 10,000. */
  readonly limit: number;
  /** The sliding window: a duration such as `'1m'` or `60_000`. */
  readonly per: Duration;
}

/**
 * A job declaration, as passed to `job()`. `idempotencyKey` and `tenant` are required: at-least-once
 * delivery means every job must be dedupable, and a job body has no request to read an org from.
 * Every invalid value is refused at `job()` with a coded error naming the field.
 *
 * `Schema` is the zod input schema: `idempotencyKey`, `tenant`, `concurrency.key` and `run` see its
 * parsed output. `Result` is inferred from `run` (declare `onSettled` after `run` so it is typed).
 * `Compensates` is inferred from `compensates`.
 */
export interface JobDefinition<
  Schema extends z.ZodType,
  Result = unknown,
  Compensates extends boolean = false,
> {
  /**
   * The durable queue key. Set it when queued rows must survive a renamed export; otherwise
   * `defineJobs` stamps the export name. Two definitions with one `name` are `X_JOB_DUPLICATE`.
   */
  readonly name?: string;
  /** The input schema. Enqueue validates with it (`X_JOB_INPUT_INVALID`); schemas must be synchronous. */
  readonly input: Schema;
  /** The dedupe key: at most one live row per `(name, tenant, key)`. Required. */
  readonly idempotencyKey: (input: z.output<Schema>) => string;
  /** The org the run acts as, derived from the input, or `'none'` for a job of no tenant. Required. */
  readonly tenant: ((input: z.output<Schema>) => string) | 'none';
  /** (Default: {@link DEFAULT_RETRY_POLICY}) */
  readonly retry?: RetryPolicy;
  /** (Default: 'default') */
  readonly queue?: string;
  /** Higher runs first; a 32-bit integer. (Default: 0) */
  readonly priority?: number;
  /** Fleet-wide concurrency cap. (Default: none) */
  readonly concurrency?: JobConcurrency<z.output<Schema>>;
  /** Fleet-wide rate limit. (Default: none) */
  readonly rateLimit?: JobRateLimit<z.output<Schema>>;
  /**
   * Ceiling of one attempt: aborts `ctx.signal`, then fails the attempt. From 1 ms to 2³¹−1 ms
   * (≈ 24.8 days, Node's timer ceiling); split longer work with `step.sleep`. (Default: none)
   */
  readonly timeout?: Duration;
  /** Ceiling of one `step.run`, from 1 ms to 2³¹−1 ms. (Default: none) */
  readonly stepTimeout?: Duration;
  /** How long a `step.waitForEvent` parks between polls. (Default: 30s) */
  readonly eventPoll?: Duration;
  /**
   * The largest payload accepted, in UTF-8 bytes of its JSON; a larger one is
   * `X_JOB_PAYLOAD_TOO_LARGE` at enqueue, on every driver alike. At most 64 MiB. (Default: 1 MiB)
   */
  readonly maxPayloadBytes?: number;
  /**
   * Allows `step.run(…, { compensate })`; compensators run only when the run fails for good, and
   * rows carry {@link UNWIND_MARGIN} extra attempts to finish the unwind. (Default: false)
   */
  readonly compensates?: Compensates;
  /** One hook for every ending; `settled.result` is typed from `run`. */
  readonly onSettled?: (settled: Settled<z.output<Schema>, Result>) => unknown;
  /** The body. Not called directly: the worker's executor is the only execution path. */
  readonly run: (args: RunArgs<z.output<Schema>, Compensates>) => Result | Promise<Result>;
}
