import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { ackUntilHeard, listenSettled } from './settle-wake-cases.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const error = { code: 'E', message: 'failed for good' };

/**
 * Subscribes a listener that reads each job a settle wake names the moment it hears it (the read
 * starts inside the listener, before it returns), as `awaitResult` does. A bare marker reads every
 * job in `settling`. Answers the states read per job, by named wakes and by markers.
 */
function readOnWake(h: DriverHarness, settling: ReadonlySet<string>) {
  const named = new Map<string, Promise<string>[]>();
  const marked = new Map<string, Promise<string>[]>();
  const read = (into: Map<string, Promise<string>[]>, id: string) =>
    into.set(id, [...(into.get(id) ?? []), h.introspect.get(id).then((row) => row?.state ?? 'missing')]);
  const unsubscribe = h.driver.wake!.subscribeSettled!((jobs) => {
    if (jobs === null) for (const id of settling) read(marked, id);
    else for (const id of jobs) read(named, id);
  });
  return { named, marked, unsubscribe };
}

/**
 * The settle wake is sent after the settled row is readable: a listener that reads the row when
 * woken sees it settled (done, dead, cancelled), on every driver with a wake, one instance or two.
 */
export const settleReadCases: readonly JobDriverCase[] = [
  {
    group: 'wake',
    name: 'a settle listener that reads the row when woken sees it settled: acked done, dead-lettered dead, cancelled cancelled',
    async run(h) {
      const probe = listenSettled(h);
      const settling = new Set<string>();
      const reads = readOnWake(h, settling);
      try {
        expect(await ackUntilHeard(h, probe.heard), 'the settle listener is live').toBe(true);
        const expected = new Map<string, string>();
        const settle = async (
          state: string,
          write: (id: string, claim: { workerId: string; token: string }) => Promise<boolean>,
        ) => {
          const job = await h.started();
          settling.add(job.id);
          expected.set(job.id, state);
          expect(await write(job.id, job.claim), `the ${state} settle lands`).toBe(true);
        };
        await settle('done', (id, claim) => h.driver.ack(id, claim, { ok: true }));
        await settle('dead', (id, claim) =>
          h.driver.nack(id, claim, { kind: 'dead', error, stopReason: 'terminal' }),
        );
        await settle('cancelled', (id) => h.introspect.cancel(id));
        const deadline = Date.now() + 3_000;
        const heardAll = () =>
          [...expected.keys()].every((id) => reads.named.has(id) || reads.marked.has(id));
        while (Date.now() < deadline && !heardAll()) await sleep(10);
        expect(heardAll(), 'a settle wake for every settled job').toBe(true);
        for (const [id, state] of expected) {
          const named = await Promise.all(reads.named.get(id) ?? []);
          const marked = await Promise.all(reads.marked.get(id) ?? []);
          expect(named, `every read a wake naming the ${state} job caused sees it ${state}`).toEqual(
            named.map(() => state),
          );
          if (named.length === 0) expect(marked, `a marker's read sees it ${state}`).toContain(state);
        }
      } finally {
        reads.unsubscribe();
        probe.unsubscribe();
      }
    },
  },
];
