import type { StepRecord } from '../driver/step-store.js';
import { placeOf, replayOrStart } from './replay-or-start.js';
import type { StepLedger } from './step-ledger.js';
import { StepSuspension } from './step-suspension.js';

/** What a sleep step stores: its wake time, and when `promote` ended it early. */
export interface SleepOutput {
  readonly wakeAt: number;
  /** Set when an operator's `promote` ended the sleep before `wakeAt` (driver clock, epoch ms). */
  readonly endedEarlyAt?: number;
}

/**
 * True when this claim came from a `promote` of the row parked on `sleep`: the row was made due
 * (`dueAt`, the claimed row's `runAt`) after the sleep began and before its wake time. Nothing
 * else moves a sleeping row's due time into that interval — a lapsed lease redelivers the row
 * with the `runAt` it had when this sleep's attempt was claimed, which is before the sleep
 * began — so a redelivery never ends a sleep.
 */
export function promotedDuring(sleep: StepRecord, wakeAt: number, dueAt: number): boolean {
  return dueAt >= sleep.startedAt && dueAt < wakeAt;
}

/**
 * `step.sleep` / `step.sleepUntil`: completes once the driver's clock reaches the wake time, or
 * when the row was promoted while it slept (output `{ wakeAt, endedEarlyAt }`); otherwise records
 * `started` with the wake time and suspends until it (the suspension burns no attempt).
 */
export async function sleepStep(
  ledger: StepLedger,
  name: string,
  computeWakeAt: () => number,
): Promise<void> {
  await replayOrStart(ledger, name, {
    replay: () => undefined,
    start: async (existing) => {
      const now = ledger.now();
      const { position, startedAt } = placeOf(ledger, existing, now);
      const wakeAt = (existing?.output as SleepOutput | null | undefined)?.wakeAt ?? computeWakeAt();
      const promoted =
        existing !== undefined && now < wakeAt && promotedDuring(existing, wakeAt, ledger.options.dueAt);
      if (now >= wakeAt || promoted) {
        const output: SleepOutput = promoted ? { wakeAt, endedEarlyAt: now } : { wakeAt };
        await ledger.save({
          name,
          position,
          status: 'completed',
          output: { ...output },
          error: null,
          startedAt,
          completedAt: now,
        });
        return;
      }
      if (existing === undefined) {
        await ledger.save({
          name,
          position,
          status: 'started',
          output: { wakeAt },
          error: null,
          startedAt,
          completedAt: null,
        });
      }
      throw new StepSuspension(name, wakeAt);
    },
  });
}
