import type { CronSchedule } from './cron-schedule.js';

/**
 * What a task fires for the occurrences it missed (downtime, a pause, a slow round):
 * `'skip'` the latest one the walk found, `'run-once'` the earliest one, `'run-all'` each one.
 */
export type CatchUpPolicy = 'skip' | 'run-once' | 'run-all';

/** The policies, in documentation order. */
export const CATCH_UP_POLICIES: readonly CatchUpPolicy[] = ['skip', 'run-once', 'run-all'];

/** What one dispatch round does for one task. */
export interface CatchUpPlan {
  /** Occurrences (epoch ms) to fire, oldest first. */
  readonly fire: readonly number[];
  /** Occurrences the walk found due (at most `maxCatchUp`). */
  readonly due: number;
  /** True when the walk stopped at `maxCatchUp` with more occurrences still due: those are dropped. */
  readonly capped: boolean;
  /** Where the watermark moves: past every occurrence due by `now`, fired or dropped. */
  readonly watermark: number;
}

/** The inputs of {@link planCatchUp}. */
export interface CatchUpInput {
  readonly schedule: Pick<CronSchedule, 'nextAfter'>;
  /** The stored watermark: every occurrence at or before it is settled. */
  readonly watermark: number;
  /** The round's time: occurrences at or before it are due. */
  readonly now: number;
  readonly catchUp: CatchUpPolicy;
  readonly maxCatchUp: number;
}

/**
 * Plans one round for one task, as a pure function. It walks forward from the watermark over at
 * most `maxCatchUp` due occurrences (the bound applies to every policy) and the policy picks
 * from what the walk found. The new watermark passes everything due by `now` — the fired, the
 * skipped and, when the walk was capped, the ones beyond the cap — so a scheduler back from an
 * outage fires its catch-up once and then waits for the next real occurrence. Answers null when
 * nothing is due.
 */
export function planCatchUp(input: CatchUpInput): CatchUpPlan | null {
  const due: number[] = [];
  let cursor = input.watermark;
  let next = input.schedule.nextAfter(cursor);
  while (next !== null && next <= input.now && due.length < input.maxCatchUp) {
    due.push(next);
    cursor = next;
    next = input.schedule.nextAfter(cursor);
  }
  const last = due.at(-1);
  if (last === undefined) return null;
  const capped = next !== null && next <= input.now;
  return {
    fire: pick(input.catchUp, due),
    due: due.length,
    capped,
    watermark: capped ? input.now : last,
  };
}

function pick(policy: CatchUpPolicy, due: readonly number[]): readonly number[] {
  switch (policy) {
    case 'skip':
      return due.slice(-1);
    case 'run-once':
      return due.slice(0, 1);
    case 'run-all':
      return due;
  }
}
