import { setTimeout as delay } from 'node:timers/promises';

/** Epoch milliseconds with sub-millisecond precision, comparable across processes on one machine. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return delay(ms);
}
