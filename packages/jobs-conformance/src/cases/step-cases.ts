import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';
import { saveStep, stepRecord } from './step-records.js';

const group = 'steps';

/** The step store: per-run records, upserts, `once` bookkeeping. */
export const stepCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'saved steps load back per run, ordered by position',
    async run(h) {
      const job = await h.running();
      const at = h.driver.now();
      const steps = [
        stepRecord('third', 2, at, { output: [1, 2, 3] }),
        stepRecord('first', 0, at, { output: { nested: { ok: true } } }),
        stepRecord('second', 1, at, {
          status: 'failed',
          output: null,
          completedAt: null,
          error: { code: 'E', message: 'm' },
        }),
      ];
      for (const step of steps) await saveStep(h, job, step);
      expect(await h.driver.steps.load(job.runId)).toEqual([steps[1], steps[2], steps[0]]);
      expect(await h.driver.steps.load(h.unique('unknown-run'))).toEqual([]);
    },
  },
  {
    group,
    name: 'a once step goes started → completed, keeping its position and startedAt',
    async run(h) {
      const job = await h.running();
      const startedAt = h.driver.now();
      const started = stepRecord('charge', 0, startedAt, {
        status: 'started',
        output: null,
        completedAt: null,
      });
      await saveStep(h, job, started);
      expect(await h.driver.steps.load(job.runId)).toEqual([started]);
      const completedAt = startedAt + 5;
      await saveStep(h, job, stepRecord('charge', 4, completedAt, { output: { id: 'ch_1' }, completedAt }));
      expect(await h.driver.steps.load(job.runId)).toEqual([
        { ...started, status: 'completed', output: { id: 'ch_1' }, completedAt },
      ]);
    },
  },
  {
    group,
    name: 'steps of one run are invisible to another run, even under the same step name',
    async run(h) {
      await h.enqueue(h.queue);
      await h.enqueue(h.queue);
      const [a, b] = await h.claim(h.queue, { limit: 2 });
      const at = h.driver.now();
      await saveStep(h, a!, stepRecord('fetch', 0, at, { output: 'a' }));
      await saveStep(h, b!, stepRecord('fetch', 0, at, { output: 'b' }));
      expect((await h.driver.steps.load(a!.runId)).map((step) => step.output)).toEqual(['a']);
      expect((await h.driver.steps.load(b!.runId)).map((step) => step.output)).toEqual(['b']);
    },
  },
  {
    group,
    name: 'steps survive a retry of the attempt and are shown by introspect.get',
    async run(h) {
      const job = await h.running();
      const step = stepRecord('provision', 0, h.driver.now());
      await saveStep(h, job, step);
      await h.driver.nack(job.id, job.claim, {
        kind: 'retry',
        runAt: h.driver.now(),
        error: { code: 'E', message: 'x' },
      });
      const again = await h.claimOne(h.queue);
      expect(await h.driver.steps.load(again.runId)).toEqual([step]);
      expect((await h.row(job.id)).steps).toEqual([step]);
    },
  },
];
