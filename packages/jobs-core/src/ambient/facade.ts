import type { EnqueueRequest, EnqueueResult } from '../driver/enqueue.js';
import { jobDriver } from './driver-slot.js';

/**
 * The path an app's enqueues take: `handle.enqueue`, `handle.enqueueMany`, `handle.as` and
 * `task.enqueue()` hand their resolved requests to the installed facade. A scheduler's own fires do
 * not: they are written with the scheduler's driver (`enqueueMany`) beside its watermark. The
 * default publishes straight to the ambient driver; `@x/jobs-outbox` installs one that stages
 * inside the caller's transaction.
 */
export interface JobsFacade {
  /** Publishes or stages one resolved request. */
  enqueue(request: EnqueueRequest): Promise<EnqueueResult>;
  /** Publishes or stages up to 1,000 resolved requests, answering in request order. */
  enqueueMany(requests: readonly EnqueueRequest[]): Promise<readonly EnqueueResult[]>;
}

/** The facade used when none is installed: straight to `jobDriver()`, which throws when none is set. */
export const directFacade: JobsFacade = {
  enqueue: (request) => jobDriver().enqueue(request),
  enqueueMany: (requests) => jobDriver().enqueueMany(requests),
};

let installed: JobsFacade | undefined;

/** Installs the facade every enqueue goes through; `null` restores the direct-to-driver default. */
export function setJobsFacade(facade: JobsFacade | null): void {
  installed = facade ?? undefined;
}

/** The installed facade, or the direct one. */
export function jobsFacade(): JobsFacade {
  return installed ?? directFacade;
}
