import type { z } from 'zod';
import { coreError } from '../errors/core-error.js';
import type { ResolvedRetryPolicy } from '../retry/retry-policy.js';
import type { ResolvedRateLimit } from '../values/rate-limit-rule.js';
import type { AnyJobHandle, ResolvedJobConcurrency } from './job-handle.js';
import type { RunArgs } from './run-args.js';
import type { Settled } from './settled.js';

/**
 * A validated job definition with defaults applied and durations in ms: what the executor and the
 * enqueue path read. Module-internal to @x/jobs-core (not exported from the package).
 */
export interface ResolvedJobDefinition {
  readonly declaredName: string | undefined;
  readonly schema: z.ZodType;
  readonly idempotencyKey: (input: unknown) => string;
  readonly tenant: ((input: unknown) => string) | 'none';
  readonly retry: ResolvedRetryPolicy;
  readonly queue: string;
  readonly priority: number;
  readonly concurrency: ResolvedJobConcurrency<unknown> | undefined;
  readonly rateLimit: ResolvedRateLimit | undefined;
  readonly timeout: number | undefined;
  readonly stepTimeout: number | undefined;
  readonly eventPoll: number | undefined;
  readonly compensates: boolean;
  readonly maxPayloadBytes: number;
  readonly onSettled: ((settled: Settled<unknown, unknown>) => unknown) | undefined;
  readonly run: (args: RunArgs<unknown, boolean>) => unknown;
}

const definitions = new WeakMap<object, ResolvedJobDefinition>();

/** Binds a handle to its definition (called once, by `job()`). */
export function bindDefinition(handle: AnyJobHandle, definition: ResolvedJobDefinition): void {
  definitions.set(handle, definition);
}

/** True when `value` is a handle made by `job()`. */
export function isJobHandle(value: unknown): value is AnyJobHandle {
  return typeof value === 'object' && value !== null && definitions.has(value);
}

/**
 * The definition behind a handle: the executor's (and the enqueue path's) way in, since a handle
 * has no `.def`. A value not made by `job()` is `X_JOB_NOT_A_HANDLE`.
 */
export function definitionOf(handle: AnyJobHandle): ResolvedJobDefinition {
  const definition = typeof handle === 'object' && handle !== null ? definitions.get(handle) : undefined;
  if (definition === undefined) {
    throw coreError('X_JOB_NOT_A_HANDLE', 'Expected a job handle made by job(); got something else.');
  }
  return definition;
}
