import type { JobDetail, JobDriver, JobState } from '@x/jobs-core';
import type { Narrator } from './narrator.js';

const TERMINAL: readonly JobState[] = ['done', 'dead', 'cancelled'];

/**
 * Follows one job row until it settles, saying when it parks (a sleep, an event wait) and why,
 * and answers the settled row with its steps. Polls `introspect.get` every `pollMs`; gives up with
 * null at `deadline` (epoch ms) or when `stopped()` turns true.
 */
export async function watchJob(
  driver: JobDriver,
  id: string,
  narrator: Narrator,
  options: {
    readonly deadline: number;
    readonly stopped: () => boolean;
    readonly pollMs?: number;
    /** Called each time the run parks (after the line saying so). */
    readonly onParked?: (row: JobDetail) => Promise<void>;
  },
): Promise<JobDetail | null> {
  let last: string | undefined;
  while (Date.now() < options.deadline && !options.stopped()) {
    const row = (await driver.introspect?.get(id)) ?? null;
    // A run can leave one park and enter the next between two polls: compare what it waits for too
    // (a sleep's wake time; an event wait re-parking at each poll is the same wait).
    const seen = row === null ? undefined : `${row.state}:${row.waitingFor ?? row.runAt}`;
    if (row !== null && seen !== last) {
      if (row.state === 'suspended') {
        const wake = new Date(row.runAt).toISOString().slice(11, 19);
        narrator.say(
          'queue',
          row.waitingFor === null
            ? `${row.name} parked: sleeping until ${wake} UTC. No worker slot or process is held.`
            : `${row.name} parked: waiting for event '${row.waitingFor}'. No slot held; publishing the event wakes it.`,
        );
        await options.onParked?.(row);
      }
      last = seen;
      if (TERMINAL.includes(row.state)) return row;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
  return null;
}
