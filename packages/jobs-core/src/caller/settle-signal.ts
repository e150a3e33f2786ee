import { ChurnMap } from '../primitives/churn-map.js';

/**
 * In-process settle signals: `awaitResult` in this process hears at once when an executor in this
 * process lands a job's terminal settle (or `cancelJob` cancels it), without asking the driver.
 * Empty (one size check per settle) when nobody awaits.
 */
const listeners = new ChurnMap<Set<() => void>>();

/** Calls `listener` when job `jobId` settles for good in this process; answers the unsubscribe. */
export function onSettledHere(jobId: string, listener: () => void): () => void {
  let set = listeners.get(jobId);
  if (set === undefined) {
    set = new Set();
    listeners.set(jobId, set);
  }
  set.add(listener);
  return () => {
    const current = listeners.get(jobId);
    if (current === undefined) return;
    current.delete(listener);
    if (current.size === 0) listeners.delete(jobId);
  };
}

/** Tells this process's awaiters of `jobId` that it settled for good. */
export function signalSettled(jobId: string): void {
  if (listeners.size === 0) return;
  const set = listeners.get(jobId);
  if (set === undefined) return;
  for (const listener of [...set]) listener();
}
