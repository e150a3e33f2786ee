import { AsyncLocalStorage } from 'node:async_hooks';
import { coreError } from '../errors/core-error.js';
import type { JobRunContext } from '../job/job-context.js';

/** The ambient run context; undefined once {@link disableCurrentJobRun} turned it off. */
let storage: AsyncLocalStorage<JobRunContext> | undefined = new AsyncLocalStorage<JobRunContext>();

/**
 * Turns the ambient run context off for this process: job bodies then run outside any
 * `AsyncLocalStorage` scope, and {@link currentJobRun} throws `X_CURRENT_RUN_DISABLED`. For apps
 * that never call `currentJobRun()`: on Node 20 the first scope makes every promise of the
 * process pay an async hook (≈ 10 % of a worker's CPU on jobs that do almost nothing). Call it
 * once at startup, before the worker starts; it cannot be undone.
 */
export function disableCurrentJobRun(): void {
  storage = undefined;
}

/** Runs `fn` with `ctx` as the ambient run context (what {@link currentJobRun} answers inside it). */
export function withJobRun<T>(ctx: JobRunContext, fn: () => T): T {
  return storage === undefined ? fn() : storage.run(ctx, fn);
}

/**
 * The context of the job run executing on this async path, or undefined outside one: how code
 * deep inside a job body (a tenant guard, a repository) reads `actor.orgId` without threading ctx.
 * After {@link disableCurrentJobRun} it throws `X_CURRENT_RUN_DISABLED` (an error, not a silent
 * "not in a job").
 */
export function currentJobRun(): JobRunContext | undefined {
  if (storage === undefined) {
    throw coreError(
      'X_CURRENT_RUN_DISABLED',
      'currentJobRun() was called after disableCurrentJobRun() turned the ambient run context off.',
    );
  }
  return storage.getStore();
}

/**
 * The ambient run context, or undefined outside a run and when {@link disableCurrentJobRun} turned
 * it off: for core's own checks (the ambient tenant), which must not throw in that case.
 */
export function maybeCurrentJobRun(): JobRunContext | undefined {
  return storage?.getStore();
}
