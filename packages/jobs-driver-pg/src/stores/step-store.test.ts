import type { StepRecord } from '@x/jobs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import { migrate } from '../migrate.js';
import { postgresJobDriver } from '../postgres-job-driver.js';
import type { PostgresJobDriver } from '../sql-job-driver.js';

const schema = scratchSchemaName('step_batch');
let driver: PostgresJobDriver;

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  driver = postgresJobDriver(
    { connectionString: DATABASE_URL, max: 2 },
    { schema, migrate: false, wake: false },
  );
});
afterAll(async () => {
  await driver.close();
  await dropSchema(schema);
});

const step = (name: string, position: number, output: number): StepRecord => ({
  name,
  position,
  status: 'completed',
  output,
  error: null,
  startedAt: driver.now(),
  completedAt: driver.now(),
});

describe('step saves of concurrent runs', () => {
  it('share statements, each fenced on its own claim, each durable when it resolves', async () => {
    const queue = `q-${schema}`;
    await driver.enqueueMany(Array.from({ length: 12 }, () => enqueueRequest({ queue })));
    const jobs = await driver.claim({
      queues: [queue],
      limit: 12,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(jobs).toHaveLength(12);
    const stale = jobs[0];
    if (stale === undefined) throw new Error('nothing claimed');
    const saves = jobs.flatMap((job, i) => {
      const claim = job === stale ? { ...job.claim, token: 'forged' } : job.claim;
      const fence = { jobId: job.id, runId: job.runId, claim };
      // The same step twice in one turn (a rewrite), and a second step.
      return [
        driver.steps.save(fence, step('a', 0, i)),
        driver.steps.save(fence, step('a', 0, i + 100)),
        driver.steps.save(fence, step('b', 1, i)),
      ];
    });
    const landed = await Promise.all(saves);
    expect(landed.slice(0, 3)).toEqual([false, false, false]);
    expect(landed.slice(3).every(Boolean)).toBe(true);
    for (const [i, job] of jobs.entries()) {
      const stored = await driver.steps.load(job.runId);
      if (job === stale) expect(stored).toEqual([]);
      else
        expect(stored.map((record) => [record.name, record.output])).toEqual([
          ['a', i + 100],
          ['b', i],
        ]);
    }
    // One step of every run in one turn: no (run, step) twice, so one SQL_STEP_SAVE_MANY.
    const third = await Promise.all(
      jobs.map((job, i) =>
        driver.steps.save(
          {
            jobId: job.id,
            runId: job.runId,
            claim: job === stale ? { ...job.claim, token: 'forged' } : job.claim,
          },
          step('c', 2, i),
        ),
      ),
    );
    expect(third).toEqual(jobs.map((job) => job !== stale));
    const rows = await adminQuery<{ n: number }>(`select count(*)::int as n from "${schema}".steps`);
    expect(rows[0]?.n).toBe(33);
    // A run settled meanwhile is fenced out of the batch; the others still land.
    const [gone, ...others] = jobs.slice(1);
    if (gone === undefined) throw new Error('nothing claimed');
    expect(await driver.ack(gone.id, gone.claim)).toBe(true);
    const fourth = await Promise.all(
      [gone, ...others].map((job) =>
        driver.steps.save({ jobId: job.id, runId: job.runId, claim: job.claim }, step('d', 3, 0)),
      ),
    );
    expect(fourth).toEqual([false, ...others.map(() => true)]);
  });
});
