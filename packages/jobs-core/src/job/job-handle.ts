import type { z } from 'zod';
import type { EnqueueResult } from '../driver/enqueue.js';
import type { ResolvedRetryPolicy } from '../retry/retry-policy.js';
import type { EnqueueManyOptions, EnqueueOptions } from './enqueue-options.js';
import type { EnqueuedJob } from './enqueued-job.js';
import type { JobActor } from './job-actor.js';
import type { JobDescriptor } from './job-descriptor.js';
import type { Registrable } from './registrable.js';

/** A job's concurrency as lifted onto its handle, with `whenBusy` resolved. */
export interface ResolvedJobConcurrency<Input> {
  /** Splits the cap per key; absent for one cap across the job. */
  key?(input: Input): string;
  readonly limit: number;
  readonly whenBusy: 'wait' | 'fail';
}

/** Type-only key: carries a handle's `Result` type. It exists in no emitted code. */
declare const RESULT_TYPE: unique symbol;

/**
 * What `job()` returns: the surface a job is used through. Every declared field is lifted onto it
 * (durations resolved to milliseconds); the definition itself is not reachable (no `.def`), and
 * `run` is not callable from here: the worker's executor is the only execution path.
 *
 * `Input` is what `run` sees (the schema's output), `Result` what `run` returns, and
 * `EnqueueInput` what callers pass (the schema's input; the same unless the schema transforms or
 * has defaults).
 */
export interface JobHandle<Input, Result = unknown, EnqueueInput = Input> extends Registrable {
  /** Type-only: `run`'s result type, for {@link JobResultOf}. Never present at run time. */
  readonly [RESULT_TYPE]?: Result;
  /** The durable name: declared, stamped by `defineJobs` from the export name, or `anonymous-job-<n>`. */
  readonly name: string;
  /** The input schema. */
  readonly input: z.ZodType<Input, EnqueueInput>;
  readonly queue: string;
  readonly priority: number;
  readonly retry: ResolvedRetryPolicy;
  readonly concurrency: ResolvedJobConcurrency<Input> | undefined;
  /** Attempt ceiling in ms, or undefined. */
  readonly timeout: number | undefined;
  /** Per-step ceiling in ms, or undefined. */
  readonly stepTimeout: number | undefined;
  /** waitForEvent poll interval in ms, or undefined for the executor's default. */
  readonly eventPoll: number | undefined;
  readonly compensates: boolean;
  /** `'input'` when `tenant(input)` derives the tenant, `'none'` when the job has none. */
  readonly tenantMode: 'input' | 'none';
  /**
   * Validates `input`, derives its key and tenant, and hands the request to the ambient facade
   * (`jobsFacade()`). Answers `{ id, runId, deduped }` with a non-enumerable `result()` that awaits
   * the run ({@link EnqueuedJob}). See {@link prepareEnqueue} for every rule.
   */
  enqueue(input: EnqueueInput, options?: EnqueueOptions): Promise<EnqueuedJob<Result>>;
  /**
   * Enqueues up to 10,000 inputs (`X_JOB_ENQUEUE_BATCH_TOO_LARGE` beyond), one facade round trip
   * per 1,000, answering in input order. Every input is validated before anything is written.
   */
  enqueueMany(
    inputs: readonly EnqueueInput[],
    options?: EnqueueManyOptions,
  ): Promise<readonly EnqueueResult[]>;
  /**
   * Enqueues on behalf of `actor`: the tenant is checked against `actor.orgId` and `enqueuedBy` is
   * `actor.id`. It queues; it never runs the body inline.
   */
  as(actor: JobActor, input: EnqueueInput, options?: EnqueueOptions): Promise<EnqueuedJob<Result>>;
  /** The manifest row. */
  describe(): JobDescriptor;
}

/** Any job handle, whatever its types: what registries, tasks and the executor accept. */
// biome-ignore lint/suspicious/noExplicitAny: the widest handle must accept every input type, which unknown cannot.
export type AnyJobHandle = JobHandle<any, any, any>;

/** The input type `enqueue` takes for a handle type. */
export type EnqueueInputOf<Handle> =
  Handle extends JobHandle<infer _Input, infer _Result, infer E> ? E : never;

/** The parsed input type `run` receives for a handle type. */
export type JobInputOf<Handle> = Handle extends JobHandle<infer I, infer _Result, infer _E> ? I : never;

/** The result type `run` returns for a handle type. */
export type JobResultOf<Handle> = Handle extends JobHandle<infer _Input, infer R, infer _E> ? R : never;
