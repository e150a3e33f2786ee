import { epochNow, sleep } from '../clock.js';
import type { JobTally } from '../job-tally.js';
import type { BenchPayload, BenchSystem } from '../system.js';

/** Payloads `start … start+count-1`, stamped now. */
export function makePayloads(start: number, count: number): BenchPayload[] {
  const t = epochNow();
  return Array.from({ length: count }, (_, k) => ({ i: start + k, t }));
}

/**
 * Waits until `total` handlers ran and the system reports nothing pending (its settles landed),
 * and answers that moment (epoch ms). Polls `pending()` only after the last handler started, so
 * the polling never competes with the drain itself.
 */
export async function waitDrained(
  system: BenchSystem,
  tally: JobTally,
  total: number,
  timeoutMs: number,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  await tally.reached(total, timeoutMs);
  for (;;) {
    const pending = await system.pending();
    if (pending === 0) return epochNow();
    if (Date.now() > deadline)
      throw new Error(`timed out: ${pending} jobs still pending after every handler ran`);
    await sleep(2);
  }
}

/** Throws unless every id of the tally ran exactly once. */
export function assertExactlyOnce(tally: JobTally): void {
  if (tally.missing > 0 || tally.duplicates > 0) {
    throw new Error(`not exactly once: ${tally.missing} jobs never ran, ${tally.duplicates} extra runs`);
  }
}
