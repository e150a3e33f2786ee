import { coreError } from '../errors/core-error.js';

/** Job handles whose name is still positional: no `name:` declared, never stamped by `defineJobs`. */
const unnamed = new WeakSet<object>();

/** Records that `handle` has no durable name yet (called by `job()` for a definition without `name:`). */
export function markUnnamed(handle: object): void {
  unnamed.add(handle);
}

/** Records that `defineJobs` stamped `handle` with its export name: from now on it may enqueue. */
export function markNamed(handle: object): void {
  unnamed.delete(handle);
}

/**
 * Refuses an enqueue through a handle with no durable name: its positional `anonymous-job-<n>`
 * depends on declaration order, so a row written under it would be claimed by no worker (or by
 * the wrong job after a redeploy). `X_JOB_UNNAMED`, naming the two fixes; nothing is written.
 */
export function assertDurableName(handle: object, name: string): void {
  if (!unnamed.has(handle)) return;
  throw coreError(
    'X_JOB_UNNAMED',
    `This job has no durable name (it is '${name}' only by declaration order), so no worker could run what it enqueues. Register its module with defineJobs({ jobs: [module] }) (it is then named after its export), or give the definition a name: '…'.`,
    { name },
  );
}
