import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

/**
 * A purge ages a done row from when it finished, never from when it was enqueued or started: the
 * case keeps the three instants apart (the clock moves between them), so a purge by the wrong
 * one removes the row too early.
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
];
