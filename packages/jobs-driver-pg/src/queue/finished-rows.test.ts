import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import { migrate } from '../migrate.js';
import { postgresJobDriver, resolveRetention } from '../postgres-job-driver.js';
import type { PostgresJobDriver } from '../sql-job-driver.js';

const schema = scratchSchemaName('finished');
let kept: PostgresJobDriver;
let dropped: PostgresJobDriver;

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  kept = postgresJobDriver(
    { connectionString: DATABASE_URL, max: 2 },
    { schema, migrate: false, wake: false },
  );
  dropped = postgresJobDriver(
    { connectionString: DATABASE_URL, max: 2 },
    { schema, migrate: false, wake: false, retention: { done: 0 } },
  );
});
afterAll(async () => {
  await kept.close();
  await dropped.close();
  await dropSchema(schema);
});

const tableOf = async (id: string): Promise<string[]> => {
  const rows = await adminQuery<{ t: string }>(
    `select 'jobs' as t from "${schema}".jobs where id = $1
     union all select 'job_history' from "${schema}".job_history where id = $1`,
    [id],
  );
  return rows.map((row) => row.t);
};

async function running(driver: PostgresJobDriver, queue: string) {
  await driver.enqueue(enqueueRequest({ queue }));
  const [job] = await driver.claim({ queues: [queue], limit: 1, workerId: 'w', visibilityTimeoutMs: 60_000 });
  if (job === undefined) throw new Error('nothing claimed');
  await driver.steps.save(
    { jobId: job.id, runId: job.runId, claim: job.claim },
    {
      name: 's',
      position: 0,
      status: 'completed',
      output: 1,
      error: null,
      startedAt: driver.now(),
      completedAt: driver.now(),
    },
  );
  return job;
}

describe('finished rows leave jobs', () => {
  it('ack, dead-letter and cancel move the row to job_history; retry moves it back', async () => {
    const queue = `q-${schema}-moves`;
    const done = await running(kept, queue);
    expect(await kept.ack(done.id, done.claim, { ok: 1 })).toBe(true);
    expect(await tableOf(done.id)).toEqual(['job_history']);
    const dead = await running(kept, queue);
    await kept.nack(dead.id, dead.claim, {
      kind: 'dead',
      error: { code: 'E', message: 'x' },
      stopReason: 'terminal',
    });
    expect(await tableOf(dead.id)).toEqual(['job_history']);
    const cancelled = await running(kept, queue);
    expect(await kept.introspect.cancel(cancelled.id, 'operator')).toBe(true);
    expect(await tableOf(cancelled.id)).toEqual(['job_history']);
    // The holder of the cancelled claim is fenced out everywhere.
    expect(await kept.heartbeat(cancelled.id, cancelled.claim, 60_000)).toBe(false);
    expect(await kept.ack(cancelled.id, cancelled.claim)).toBe(false);

    expect(await kept.introspect.retry(dead.id)).toBe(true);
    expect(await tableOf(dead.id)).toEqual(['jobs']);
    expect((await kept.introspect.get(dead.id))?.steps).toHaveLength(1);
    const stats = (await kept.stats()).find((entry) => entry.queue === queue);
    expect(stats?.counts).toMatchObject({ done: 1, dead: 0, cancelled: 1, ready: 1 });
  });

  it('retention { done: 0 }: an ack deletes the row and its steps; dead rows are kept', async () => {
    const queue = `q-${schema}-dropped`;
    const done = await running(dropped, queue);
    expect(await dropped.ack(done.id, done.claim, { ok: 1 })).toBe(true);
    expect(await tableOf(done.id)).toEqual([]);
    expect(await dropped.introspect.get(done.id)).toBeNull();
    expect(await dropped.steps.load(done.runId)).toEqual([]);
    // A second ack of the same claim finds nothing.
    expect(await dropped.ack(done.id, done.claim)).toBe(false);
    const dead = await running(dropped, queue);
    await dropped.nack(dead.id, dead.claim, {
      kind: 'dead',
      error: { code: 'E', message: 'x' },
      stopReason: 'terminal',
    });
    expect((await dropped.introspect.get(dead.id))?.steps).toHaveLength(1);
    expect(dropped.doneRetentionMs).toBe(0);
  });

  it('retention options: done 0 or positive ms, not both forms at once', () => {
    expect(resolveRetention({ retention: { done: 0 } })).toEqual({ doneRetentionMs: 0, keepDone: false });
    expect(resolveRetention({ retention: { done: 5_000 } })).toEqual({
      doneRetentionMs: 5_000,
      keepDone: true,
    });
    expect(resolveRetention({ doneRetentionMs: 5_000 })).toEqual({ doneRetentionMs: 5_000, keepDone: true });
    for (const options of [
      { retention: { done: -1 } },
      { retention: { done: Number.NaN } },
      { doneRetentionMs: 0 },
      { doneRetentionMs: 1, retention: { done: 1 } },
    ]) {
      expect(() => resolveRetention(options), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: 'X_PG_OPTIONS_INVALID' }),
      );
    }
  });
});
