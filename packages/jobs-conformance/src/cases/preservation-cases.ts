import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';
import { saveStep, stepRecord } from './step-records.js';

const group = 'preservation';

/**
 * What an operation must leave alone: the other field of a row another update races, the steps
 * of another run whatever their names, the steps of a dead job retried from the start.
 */
export const preservationCases: readonly JobDriverCase[] = [
  {
    group,
    name: "a schedule's pause flag and watermark, updated concurrently, both keep their new values",
    async run(h) {
      const task = h.unique('task');
      let watermark: number | null = null;
      for (let round = 0; round < 12; round += 1) {
        const paused = round % 2 === 0;
        const next = 1_000 * (round + 1);
        const [, advanced] = await Promise.all([
          h.schedules.setPaused(task, paused),
          h.schedules.advance(task, watermark, next),
        ]);
        expect(advanced, `round ${round}: the advance from ${watermark} lands`).toBe(true);
        watermark = next;
        const state = await h.schedules.get(task);
        expect(state, `round ${round}`).toMatchObject({ task, watermark: next, paused });
      }
    },
  },
  {
    group,
    name: 'steps of one run never show up in another run of the same job, whatever their names',
    async run(h) {
      const key = h.unique('key');
      await h.enqueue(h.queue, { name: 'scoped-job', idempotencyKey: key });
      const first = await h.claimOne(h.queue);
      const at = h.driver.now();
      await saveStep(h, first, stepRecord('fetch', 0, at));
      await saveStep(h, first, stepRecord('store', 1, at));
      expect(await h.driver.ack(first.id, first.claim)).toBe(true);

      await h.enqueue(h.queue, { name: 'scoped-job', idempotencyKey: key });
      const second = await h.claimOne(h.queue);
      expect(second.runId, 'a new run').not.toBe(first.runId);
      expect(await h.driver.steps.load(second.runId), 'a new run starts with no steps').toEqual([]);
      await saveStep(h, second, stepRecord('notify', 0, at));
      expect((await h.driver.steps.load(first.runId)).map((s) => s.name)).toEqual(['fetch', 'store']);
      expect((await h.driver.steps.load(second.runId)).map((s) => s.name)).toEqual(['notify']);
      expect((await h.row(second.id)).steps.map((s) => s.name)).toEqual(['notify']);
    },
  },
  {
    group,
    name: 'retrying a dead job without fromStep keeps every recorded step',
    async run(h) {
      const job = await h.running();
      const at = h.driver.now();
      const steps = [
        stepRecord('charge', 0, at, { output: { chargeId: 'ch_1' } }),
        stepRecord('ship', 1, at),
      ];
      for (const step of steps) await saveStep(h, job, step);
      await h.driver.nack(job.id, job.claim, {
        kind: 'dead',
        error: { code: 'E', message: 'm' },
        stopReason: 'terminal',
      });
      expect(await h.introspect.retry(job.id)).toBe(true);
      const again = await h.claimOne(h.queue);
      expect(again.id).toBe(job.id);
      expect(await h.driver.steps.load(again.runId)).toEqual(steps);
      expect((await h.row(job.id)).steps).toEqual(steps);
    },
  },
];
