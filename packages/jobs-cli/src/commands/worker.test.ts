import type { ShowJson } from '@x/jobs-dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import { jsonLines, runCli, startCli } from '../../test-support/run-cli.js';
import type { WorkersJson } from './workers.js';

const APP = 'test-support/fixtures/app.mjs';

describe('x-jobs worker (PostgreSQL)', () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg?.drop());

  it('--once runs every due job of the module to completion, then exits 0', async () => {
    const id = await pg.enqueue({ name: 'greet', queue: 'default', payload: { name: 'ada' } });
    const run = await pg.cli(['worker', '--module', APP, '--once']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ran 1 due job; none left due');

    const { job } = (await pg.cli(['show', id, '--json'])).json<ShowJson>();
    expect(job).toMatchObject({ state: 'done', attempts: 1, result: 'hello ada' });
    expect(job.steps.map((step) => [step.name, step.status])).toEqual([
      ['compose', 'completed'],
      ['deliver', 'completed'],
    ]);
    expect(job.steps[1]?.output).toEqual({ delivered: 9, apiToken: '[redacted]' });
  });

  it('runs until SIGTERM, reporting itself and each event as JSON lines, and drains cleanly', async () => {
    const worker = startCli(['worker', '--module', APP, '--json', '--concurrency', '2'], {
      env: { DATABASE_URL: pg.url, X_JOBS_SCHEMA: pg.schema },
    });
    await worker.waitFor('"event":"jobs.worker.started"');
    const id = await pg.enqueue({ name: 'greet', queue: 'default', payload: { name: 'grace' } });
    await expect
      .poll(async () => (await pg.driver.introspect?.get(id))?.state, { timeout: 15_000 })
      .toBe('done');

    const workers = (await pg.cli(['workers', '--json'])).json<WorkersJson>();
    expect(workers.workers).toEqual([expect.objectContaining({ queues: ['default'], concurrency: 2 })]);

    worker.child.kill('SIGTERM');
    const result = await worker.done;
    expect(result.code, result.stderr).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.map((event) => event.event)).toEqual(
      expect.arrayContaining([
        'x-jobs.started',
        'jobs.worker.started',
        'x-jobs.stopping',
        'jobs.worker.stopped',
      ]),
    );
    expect(events.find((event) => event.event === 'jobs.worker.stopped')?.counts).toMatchObject({
      completed: 1,
    });
    expect((await pg.cli(['workers', '--json'])).json<WorkersJson>().workers).toEqual([]);
  });
});

describe('x-jobs worker --otel console (memory driver)', () => {
  it('starts the OpenTelemetry SDK: the job and each step print their span', async () => {
    const run = await runCli(
      ['worker', '--module', APP, '--driver', 'memory', '--once', '--otel', 'console'],
      {
        env: { FIXTURE_SEED: 'ada' },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    for (const span of ["name: 'job greet'", "name: 'step compose'", "name: 'step deliver'"]) {
      expect(run.stdout).toContain(span);
    }
    const plain = await runCli(['worker', '--module', APP, '--driver', 'memory', '--once'], {
      env: { FIXTURE_SEED: 'ada' },
    });
    expect(plain.stdout).not.toContain("name: 'job greet'");
  });
});
