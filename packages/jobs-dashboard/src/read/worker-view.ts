import type { JobIntrospection, WorkerInfo } from '@x/jobs-core';

/** One live worker as the workers page and `api/workers` show it. Times are epoch ms. */
export interface WorkerView extends WorkerInfo {
  /** `now - lastSeenAt`: how old its last heartbeat is. */
  readonly lastSeenAgoMs: number;
}

/** The shape of `api/workers`. */
export interface WorkersJson {
  readonly workers: readonly WorkerView[];
}

/** Every worker seen within its TTL, sorted by host, then pid, then id. */
export async function readWorkers(introspect: JobIntrospection, now: number): Promise<WorkersJson> {
  const workers = await introspect.workers();
  return {
    workers: [...workers]
      .sort((a, b) => a.host.localeCompare(b.host) || a.pid - b.pid || a.id.localeCompare(b.id))
      .map((worker) => ({ ...worker, lastSeenAgoMs: Math.max(0, now - worker.lastSeenAt) })),
  };
}
