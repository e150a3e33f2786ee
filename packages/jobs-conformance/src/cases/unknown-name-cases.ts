import { createWorker, type JobsLogger, job } from '@x/jobs-core';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'unknown job name';

/** An input "schema" that admits any stored payload (the suite does not depend on zod). */
const anyPayload = { safeParse: (data: unknown) => ({ success: true, data }) };

/** A worker of the harness driver on the harness queue, with `registry`, logging into `events`. */
function workerOf(h: DriverHarness, registry: { get(name: string): unknown }, events: string[]) {
  const logger: JobsLogger = { log: (_level, event) => void events.push(event) };
  return createWorker({
    driver: h.driver,
    registry,
    queues: [h.queue],
    context: () => ({}),
    handleSignals: false,
    logger,
  });
}

/**
 * A worker that claims a row whose job name it has not registered never runs it and never spends
 * one of its attempts: the row goes back uncounted (a `release` after a claim that started it) for
 * a worker that knows the name, and the stranger logs `jobs.job.unknown` once per name.
 */
export const unknownNameCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a worker that does not know the name hands the row back uncounted, again and again, and a worker that knows it runs it',
    async run(h) {
      const name = h.unique('unknown-name');
      const { id } = await h.enqueue(h.queue, { name, maxAttempts: 1 });
      const events: string[] = [];
      const stranger = workerOf(h, new Map(), events);
      for (let round = 0; round < 3; round += 1) {
        expect(await stranger.runDue(), 'the stranger claimed the row').toBe(1);
        const row = await h.row(id);
        expect(row, `round ${round}: handed back, no attempt spent`).toMatchObject({
          state: 'delayed',
          attempts: 0,
        });
        expect(row.runAt, 'handed back with a delay, not due at once').toBeGreaterThan(h.driver.now());
        expect(await h.introspect.promote(id)).toBe(true);
      }
      expect(
        events.filter((event) => event === 'jobs.job.unknown'),
        'logged once per name',
      ).toHaveLength(1);
      let ran = 0;
      const known = job({
        name,
        input: anyPayload as never,
        idempotencyKey: () => name,
        tenant: 'none',
        run: () => {
          ran += 1;
        },
      });
      const owner = workerOf(h, new Map([[name, known]]), []);
      expect(await owner.runDue()).toBe(1);
      expect(ran).toBe(1);
      expect(await h.row(id)).toMatchObject({ state: 'done', attempts: 1 });
    },
  },
];
