import { AsyncLocalStorage } from 'node:async_hooks';
import type { JobRunContext } from '../job/job-context.js';

const storage = new AsyncLocalStorage<JobRunContext>();

/** Runs `fn` with `ctx` as the ambient run context (what {@link currentJobRun} answers inside it). */
export function withJobRun<T>(ctx: JobRunContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/**
 * The context of the job run executing on this async path, or undefined outside one: how code
 * deep inside a job body (a tenant guard, a repository) reads `actor.orgId` without threading ctx.
 */
export function currentJobRun(): JobRunContext | undefined {
  return storage.getStore();
}
