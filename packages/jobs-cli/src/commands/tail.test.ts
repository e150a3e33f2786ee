import type { JobEvent } from '@x/jobs-dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import { jsonLines, startCli } from '../../test-support/run-cli.js';

describe('x-jobs tail (PostgreSQL)', () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg?.drop());

  it('follows enqueue, start, step, retry and dead as JSON lines until SIGINT, exit 0', async () => {
    await pg.enqueue({ name: 'before-the-tail', queue: 'tail-old' });
    const tail = startCli(['tail', '--queue', 'tail-q', '--interval', '200', '--json'], {
      env: { DATABASE_URL: pg.url, X_JOBS_SCHEMA: pg.schema },
    });
    await tail.waitFor('following job events');
    const id = await pg.enqueue({ name: 'send', queue: 'tail-q', maxAttempts: 2 });
    await tail.waitFor('"event":"enqueued"');
    let job = await pg.claim('tail-q');
    await pg.saveStep(job, {
      name: 'compose',
      position: 0,
      status: 'completed',
      completedAt: pg.driver.now(),
    });
    await tail.waitFor('"event":"step"');
    await pg.driver.nack(job.id, job.claim, {
      kind: 'retry',
      runAt: pg.driver.now(),
      error: { code: 'X_SMTP', message: 'down' },
    });
    await tail.waitFor('"event":"retried"');
    job = await pg.claim('tail-q');
    await pg.driver.nack(job.id, job.claim, {
      kind: 'dead',
      error: { code: 'X_SMTP', message: 'down' },
      stopReason: 'attempts-exhausted',
    });
    await tail.waitFor('"event":"dead"');
    tail.child.kill('SIGINT');
    const run = await tail.done;
    expect(run.code, run.stderr).toBe(0);
    const events = jsonLines(run.stdout) as unknown as JobEvent[];
    expect(events.every((event) => event.id === id)).toBe(true);
    expect(events.map((event) => event.event)).toEqual([
      'enqueued',
      'started',
      'step',
      'retried',
      'started',
      'dead',
    ]);
    expect(events[2]?.step).toMatchObject({ name: 'compose', status: 'completed' });
    expect(events[5]).toMatchObject({ attempts: 2, maxAttempts: 2, error: { code: 'X_SMTP' } });
  });

  it('prints one readable line per event for a human', async () => {
    const tail = startCli(['tail', '--queue', 'tail-h', '--interval', '200'], {
      env: { DATABASE_URL: pg.url, X_JOBS_SCHEMA: pg.schema },
    });
    await tail.waitFor('following job events');
    const id = await pg.enqueue({ name: 'bill', queue: 'tail-h', maxAttempts: 1 });
    await tail.waitFor(/enqueued\s+bill/);
    tail.child.kill('SIGINT');
    const run = await tail.done;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(id);
    expect(run.stdout).toContain('(queue tail-h, attempt 0/1)');
  });
});
