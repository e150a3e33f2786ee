import type { WorkerInfo } from '@x/jobs-core';
import type { LsJson } from '@x/jobs-dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import type { PauseJson } from './pause.js';
import type { WorkersJson } from './workers.js';

describe('x-jobs ls, pause, resume and workers (PostgreSQL)', () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg?.drop());

  it('lists queues by state and pauses and resumes one', async () => {
    await pg.enqueue({ name: 'send', queue: 'emails' });
    await pg.enqueue({ name: 'send', queue: 'emails' });
    await pg.enqueue({ name: 'send', queue: 'emails', runAt: Date.now() + 60_000 });
    await pg.enqueue({ name: 'sync', queue: 'crm' });

    const paused = await pg.cli(['pause', 'emails', '--json']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.json<PauseJson>()).toEqual({ queue: 'emails', paused: true });

    const ls = (await pg.cli(['ls', '--json'])).json<LsJson>();
    expect(ls.queues.map((queue) => queue.queue)).toEqual(['crm', 'emails']);
    expect(ls.queues[1]).toMatchObject({
      queue: 'emails',
      counts: { ready: 2, delayed: 1, running: 0, dead: 0 },
      depth: 3,
      dead: 0,
      paused: true,
    });
    expect(ls.queues[1]?.oldestReadyAgeMs).toEqual(expect.any(Number));
    expect(
      await pg.driver.claim({ queues: ['emails'], limit: 5, workerId: 't', visibilityTimeoutMs: 1000 }),
    ).toEqual([]);

    const text = await pg.cli(['ls']);
    expect(text.stdout).toMatch(/^QUEUE\s+READY\s+DELAYED\s+RUNNING/m);
    expect(text.stdout).toMatch(/^emails\s+2\s+1\s+0\s+0\s+0\s+0\s+0\s+\S+\s+paused$/m);

    const resumed = await pg.cli(['resume', 'emails']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Resumed emails');
    expect((await pg.cli(['ls', '--json'])).json<LsJson>().queues[1]?.paused).toBe(false);
  });

  it('lists live workers', async () => {
    const info: WorkerInfo = {
      id: 'host-a:42:abc',
      queues: ['emails', 'crm'],
      concurrency: 10,
      inFlight: 3,
      host: 'host-a',
      pid: 42,
      startedAt: Date.now() - 60_000,
      lastSeenAt: Date.now(),
    };
    await pg.driver.introspect?.reportWorker(info, 60_000);
    const run = await pg.cli(['workers', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<WorkersJson>().workers).toEqual([
      expect.objectContaining({ id: info.id, inFlight: 3, pid: 42 }),
    ]);
    const text = await pg.cli(['workers']);
    expect(text.stdout).toMatch(/host-a:42:abc\s+host-a\s+42\s+emails, crm\s+3\/10/);
  });
});
