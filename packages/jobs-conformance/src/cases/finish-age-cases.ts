import type { WorkerInfo } from '@x/jobs-core';
import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

/**
 * Ages measured from the right instant: a purge ages a done row from when it finished, never from
 * when it was enqueued or started; a worker's TTL runs from its latest report, not its first. Each
 * case keeps the instants apart (the clock moves between them), so an age taken from the wrong one
 * removes the row or the worker too early.
 */
export const finishAgeCases: readonly JobDriverCase[] = [
  {
    group: 'introspect',
    name: 'purge ages a done row from when it finished: enqueued, started and finished apart, a cutoff just before the finish keeps it and one just after removes it',
    async run(h) {
      const { id } = await h.enqueue(h.queue);
      await h.advance(h.tickMs * 2);
      const job = await h.claimOne(h.queue);
      expect(await h.driver.start(id, job.claim, LONG_MS)).toBe(true);
      await h.advance(h.tickMs * 2);
      expect(await h.driver.ack(id, job.claim, { ok: true })).toBe(true);
      const row = await h.row(id);
      const startedAt = row.startedAt ?? Number.NaN;
      const finishedAt = row.finishedAt ?? Number.NaN;
      expect(startedAt - row.enqueuedAt, 'started a while after it was enqueued').toBeGreaterThan(h.tickMs);
      expect(finishedAt - startedAt, 'finished a while after it started').toBeGreaterThan(h.tickMs);

      // With a retention R, a purge at finishedAt + R − ε (cutoff finishedAt − ε) keeps the row…
      await h.introspect.purge({ doneBefore: finishedAt - 1 });
      expect(await h.introspect.get(id), 'kept: it finished after the cutoff').not.toBeNull();
      await h.introspect.purge({ doneBefore: startedAt + 1 });
      expect(
        await h.introspect.get(id),
        'kept: a cutoff after its start is still before its finish',
      ).not.toBeNull();
      // …and one at finishedAt + R + ε (cutoff finishedAt + ε) removes it.
      await h.advance(2);
      await h.introspect.purge({ doneBefore: finishedAt + 1 });
      expect(await h.introspect.get(id), 'removed: it finished before the cutoff').toBeNull();
    },
  },
  {
    group: 'introspect',
    name: "a worker's TTL runs from its latest report: re-reported before it lapsed, it is listed past the first report's TTL",
    async run(h) {
      const id = h.unique('w-renewed');
      const ttl = h.tickMs * 4;
      const info = (inFlight: number): WorkerInfo => {
        const at = h.driver.now();
        return {
          id,
          queues: [h.queue],
          concurrency: 1,
          inFlight,
          host: 'h',
          pid: 1,
          startedAt: at,
          lastSeenAt: at,
        };
      };
      const listed = async () => (await h.introspect.workers()).some((worker) => worker.id === id);
      await h.introspect.reportWorker(info(0), ttl);
      await h.advance(h.tickMs * 3);
      await h.introspect.reportWorker(info(1), ttl);
      await h.advance(h.tickMs * 2);
      expect(await listed(), "listed: the first report's TTL has run out, the latest one's has not").toBe(
        true,
      );
      await h.advance(h.tickMs * 3);
      expect(await listed(), "gone once the latest report's TTL ran out").toBe(false);
    },
  },
];
