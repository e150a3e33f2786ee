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
 *
 * With `reportedLate` (runs reported over IPC every 20 ms by other processes), a system already
 * drained at the first poll is answered as drained at its last handler start (`tally.lastAt`):
 * its settles landed within the reporting delay, which would otherwise be counted as drain time.
 */
export async function waitDrained(
  system: BenchSystem,
  tally: JobTally,
  total: number,
  timeoutMs: number,
  options: { readonly reportedLate?: boolean } = {},
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  await tally.reached(total, timeoutMs);
  for (let poll = 0; ; poll += 1) {
    const pending = await system.pending();
    if (pending === 0) return options.reportedLate && poll === 0 ? tally.lastAt : epochNow();
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
