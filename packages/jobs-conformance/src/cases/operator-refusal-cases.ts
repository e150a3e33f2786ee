import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { saveStep, stepRecord } from './step-records.js';

const group = 'operator refusals';
const failure = { code: 'E', message: 'failed for good' };

/** A row of `queue` dead-lettered after saving `steps` (by name, in position order). */
async function deadWithSteps(h: DriverHarness, queue: string, steps: readonly string[]): Promise<string> {
  const job = await h.running(queue);
  const at = h.driver.now();
  for (const [position, name] of steps.entries()) await saveStep(h, job, stepRecord(name, position, at));
  await h.driver.nack(job.id, job.claim, { kind: 'dead', error: failure, stopReason: 'terminal' });
  return job.id;
}

/**
 * What an operator call answers when there is nothing for it to act on: false (or an empty page
 * end), and nothing changed. A driver must check each precondition itself, not assume the row,
 * its run's steps or the named step exist.
 */
export const operatorRefusalCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'retry fromStep is refused when the run has no steps or no step of that name, changing nothing',
    async run(h) {
      const bare = await deadWithSteps(h, h.queue, []);
      expect(await h.introspect.retry(bare, { fromStep: 'charge' }), 'a run without steps').toBe(false);
      expect((await h.row(bare)).state).toBe('dead');
      const stepped = await deadWithSteps(h, h.unique('q'), ['charge', 'email']);
      expect(await h.introspect.retry(stepped, { fromStep: 'refund' }), 'no step of that name').toBe(false);
      const row = await h.row(stepped);
      expect(row.state).toBe('dead');
      expect(row.steps.map((step) => step.name)).toEqual(['charge', 'email']);
    },
  },
  {
    group,
    name: 'resolveStep is refused for an unknown job, a run without steps and a step name the run lacks',
    async run(h) {
      const resolution = { ran: true, output: { ok: true } } as const;
      expect(await h.introspect.resolveStep(h.unique('absent'), 'charge', resolution), 'unknown job').toBe(
        false,
      );
      const bare = await deadWithSteps(h, h.queue, []);
      expect(await h.introspect.resolveStep(bare, 'charge', resolution), 'a run without steps').toBe(false);
      const job = await h.running(h.unique('q'));
      const started = { status: 'started' as const, output: null, completedAt: null };
      await saveStep(h, job, stepRecord('charge', 0, h.driver.now(), started));
      expect(await h.introspect.resolveStep(job.id, 'refund', resolution), 'no step of that name').toBe(
        false,
      );
      expect((await h.driver.steps.load(job.runId)).map((step) => [step.name, step.status])).toEqual([
        ['charge', 'started'],
      ]);
    },
  },
  {
    group,
    name: 'list without a filter answers rows of every queue',
    async run(h) {
      const a = await h.enqueue(h.unique('qa'));
      const b = await h.enqueue(h.unique('qb'));
      const page = await h.introspect.list({ limit: 2 });
      expect(page.jobs.map((job) => job.id)).toEqual([b.id, a.id]);
    },
  },
  {
    group,
    name: 'the page that holds the last rows has a null nextCursor, also when it is exactly full',
    async run(h) {
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        ids.push((await h.enqueue(h.queue)).id);
        await h.advance(2);
      }
      for (const limit of [3, 5]) {
        const page = await h.introspect.list({ queue: h.queue, limit });
        expect(
          page.jobs.map((job) => job.id),
          `limit ${limit}`,
        ).toEqual([...ids].reverse());
        expect(page.nextCursor, `limit ${limit}`).toBeNull();
      }
      const first = await h.introspect.list({ queue: h.queue, limit: 2 });
      expect(first.nextCursor).not.toBeNull();
      const last = await h.introspect.list({ queue: h.queue, limit: 2, cursor: first.nextCursor! });
      expect(last.jobs.map((job) => job.id)).toEqual([ids[0]]);
      expect(last.nextCursor, 'the last page').toBeNull();
    },
  },
];
