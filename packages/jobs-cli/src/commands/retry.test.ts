import type { ClaimedJob } from '@x/jobs-core/driver';
import type { ShowJson } from '@x/jobs-dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import type { RetryJson } from './retry.js';

describe('x-jobs retry (PostgreSQL)', () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg?.drop());

  /** A dead job with three completed-or-failed steps on its own queue. */
  async function deadJobWithSteps(queue: string): Promise<ClaimedJob> {
    await pg.enqueue({ name: 'onboard', queue, maxAttempts: 2 });
    const claimed = await pg.claim(queue);
    for (const [position, name] of ['provision', 'welcome-email', 'nudge'].entries()) {
      await pg.saveStep(claimed, { name, position, status: 'completed', completedAt: pg.driver.now() });
    }
    await pg.driver.nack(claimed.id, claimed.claim, {
      kind: 'dead',
      error: { code: 'X_SMTP', message: 'smtp down' },
      stopReason: 'attempts-exhausted',
    });
    return claimed;
  }

  it('puts a dead job back to ready, keeping its steps', async () => {
    const job = await deadJobWithSteps('retry-plain');
    const run = await pg.cli(['retry', job.id, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<RetryJson>()).toEqual({
      id: job.id,
      retried: true,
      previousState: 'dead',
      fromStep: null,
      stepsReset: [],
    });
    const shown = (await pg.cli(['show', job.id, '--json'])).json<ShowJson>();
    expect(shown.job).toMatchObject({ state: 'ready', attempts: 0 });
    expect(shown.job.steps.map((step) => step.name)).toEqual(['provision', 'welcome-email', 'nudge']);
  });

  it('re-runs from a named step: that step and every later one are reset', async () => {
    const job = await deadJobWithSteps('retry-from');
    const run = await pg.cli(['retry', job.id, '--from-step', 'welcome-email']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Re-running from 'welcome-email': welcome-email, nudge.");
    const shown = (await pg.cli(['show', job.id, '--json'])).json<ShowJson>();
    expect(shown.job.steps.map((step) => step.name)).toEqual(['provision']);
  });

  it('refuses an unknown step and a live job with exit 1 and a code that says which', async () => {
    const job = await deadJobWithSteps('retry-refused');
    const unknownStep = await pg.cli(['retry', job.id, '--from-step', 'charge', '--json']);
    expect(unknownStep.code).toBe(1);
    expect(unknownStep.json<{ error: { code: string; meta: { hint: string } } }>().error).toMatchObject({
      code: 'X_CLI_STEP_NOT_FOUND',
      meta: { hint: 'Recorded steps: provision, welcome-email, nudge' },
    });

    const liveId = await pg.enqueue({ name: 'onboard', queue: 'retry-live' });
    const live = await pg.cli(['retry', liveId]);
    expect(live.code).toBe(1);
    expect(live.stderr).toMatch(/X_CLI_JOB_NOT_RETRYABLE: .* is ready/);
    expect(live.stderr).toContain('waits for a worker');

    const delayedId = await pg.enqueue({
      name: 'onboard',
      queue: 'retry-delayed',
      runAt: Date.now() + 60_000,
    });
    const delayed = await pg.cli(['retry', delayedId]);
    expect(delayed.code).toBe(1);
    expect(delayed.stderr).toContain(`x-jobs promote ${delayedId}`);
  });
});
