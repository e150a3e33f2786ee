import { AsyncLocalStorage } from 'node:async_hooks';
import { coreError } from '../errors/core-error.js';
import type { JobRunContext } from '../job/job-context.js';

/** The ambient run context, once {@link enableCurrentJobRun} created it. */
let storage: AsyncLocalStorage<JobRunContext> | undefined;

/**
 * Turns on {@link currentJobRun} for this process: from now on every job body runs inside an
 * `AsyncLocalStorage` scope. Off until called because on Node 20 the first scope makes every
 * promise of the process pay an async hook (≈ 10 % of a worker's CPU on short jobs). Call it once
 * at startup, before the worker starts; calling it again does nothing.
 */
export function enableCurrentJobRun(): void {
  storage ??= new AsyncLocalStorage<JobRunContext>();
}

/** Runs `fn` with `ctx` as the ambient run context (what {@link currentJobRun} answers inside it). */
export function withJobRun<T>(ctx: JobRunContext, fn: () => T): T {
  return storage === undefined ? fn() : storage.run(ctx, fn);
}

/**
 * The context of the job run executing on this async path, or undefined outside one: how code
 * deep inside a job body (a tenant guard, a repository) reads `actor.orgId` without threading ctx.
 * Needs {@link enableCurrentJobRun} first (`X_CURRENT_RUN_DISABLED` otherwise, so a forgotten
 * call is an error rather than a silent "not in a job").
 */
export function currentJobRun(): JobRunContext | undefined {
  if (storage === undefined) {
    throw coreError(
      'X_CURRENT_RUN_DISABLED',
      'currentJobRun() needs enableCurrentJobRun() to be called once at startup, before the worker starts.',
    );
  }
  return storage.getStore();
}
