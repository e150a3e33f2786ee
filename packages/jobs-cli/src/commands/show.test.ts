import { attemptFailureOf } from '@x/jobs-core';
import type { JobListJson, ShowJson } from '@x/jobs-dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';

describe('x-jobs show and dead (PostgreSQL)', () => {
  let pg: PgFixture;
  let deadId: string;
  beforeAll(async () => {
    pg = await pgFixture();
    deadId = await pg.enqueue({
      name: 'charge-card',
      queue: 'billing',
      tenantId: 'org-1',
      maxAttempts: 1,
      payload: {
        orderId: 'o-1',
        card: { number: '4242', cvv: '123' },
        password: 'hunter2',
        apiKey: 'sk_live',
      },
    });
    const claimed = await pg.claim('billing');
    await pg.saveStep(claimed, {
      name: 'reserve',
      position: 0,
      status: 'completed',
      output: { reservation: 'r-1', token: 'tok_1' },
      startedAt: 1_000,
      completedAt: 1_250,
    });
    await pg.saveStep(claimed, {
      name: 'capture',
      position: 1,
      status: 'failed',
      error: { code: 'X_CARD_DECLINED', message: 'card declined' },
    });
    await pg.driver.nack(claimed.id, claimed.claim, {
      kind: 'dead',
      error: { code: 'X_CARD_DECLINED', message: 'card declined' },
      stopReason: 'terminal',
    });
  });
  afterAll(() => pg?.drop());

  it('shows the row, why it stopped, its steps with durations, and the input with secrets redacted', async () => {
    const run = await pg.cli(['show', deadId, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const { job } = run.json<ShowJson>();
    expect(job).toMatchObject({
      id: deadId,
      name: 'charge-card',
      queue: 'billing',
      state: 'dead',
      tenantId: 'org-1',
      attempts: 1,
      maxAttempts: 1,
      stopReason: 'terminal',
      lastError: { code: 'X_CARD_DECLINED' },
      payload: {
        orderId: 'o-1',
        card: { number: '4242', cvv: '[redacted]' },
        password: '[redacted]',
        apiKey: '[redacted]',
      },
    });
    expect(job.steps).toEqual([
      expect.objectContaining({
        name: 'reserve',
        status: 'completed',
        durationMs: 250,
        output: { reservation: 'r-1', token: '[redacted]' },
      }),
      expect.objectContaining({
        name: 'capture',
        status: 'failed',
        durationMs: null,
        error: expect.objectContaining({ code: 'X_CARD_DECLINED' }),
      }),
    ]);

    const text = await pg.cli(['show', deadId, '--redact-key', 'number']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/charge-card .* dead/);
    expect(text.stdout).toMatch(/stop reason\s+terminal/);
    expect(text.stdout).toMatch(/last error\s+X_CARD_DECLINED: card declined/);
    expect(text.stdout).toMatch(/0\s+reserve\s+completed\s+250ms/);
    expect(text.stdout).toMatch(/1\s+capture\s+failed\s+—\s+X_CARD_DECLINED: card declined/);
    for (const secret of ['hunter2', 'sk_live', '123', '4242']) expect(text.stdout).not.toContain(secret);
  });

  it('answers an unknown id with exit 1 and X_JOB_NOT_FOUND', async () => {
    const run = await pg.cli(['show', '00000000-0000-0000-0000-000000000000']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('X_JOB_NOT_FOUND');
  });

  it('lists dead jobs with their stop reason, filtered by queue, a page at a time', async () => {
    for (const n of [1, 2]) {
      await pg.enqueue({ name: 'sync', queue: `sync-${n}`, maxAttempts: 1 });
      const claimed = await pg.claim(`sync-${n}`);
      await pg.driver.nack(claimed.id, claimed.claim, {
        kind: 'dead',
        error: { code: 'X_TIMEOUT', message: `timed out ${n}` },
        stopReason: 'attempts-exhausted',
      });
    }
    const billing = await pg.cli(['dead', '--queue', 'billing', '--json']);
    expect(billing.code).toBe(0);
    expect(billing.json<JobListJson>()).toMatchObject({
      jobs: [
        { id: deadId, name: 'charge-card', stopReason: 'terminal', lastError: { code: 'X_CARD_DECLINED' } },
      ],
      nextCursor: null,
    });

    const first = (await pg.cli(['dead', '--limit', '2', '--json'])).json<JobListJson>();
    expect(first.jobs).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = (
      await pg.cli(['dead', '--limit', '2', '--cursor', String(first.nextCursor), '--json'])
    ).json<JobListJson>();
    expect(second.jobs).toHaveLength(1);
    expect(new Set([...first.jobs, ...second.jobs].map((job) => job.id)).size).toBe(3);

    const text = await pg.cli(['dead', '--name', 'sync']);
    // A finished row shows the attempts that started, not a cap (attemptsLabel in core).
    expect(text.stdout).toMatch(/sync\s+sync-\d\s+dead\s+1\s.*attempts-exhausted/);
    expect(text.stdout).toContain('attempts-exhausted');
  });
  it("lists every failed attempt's error with its stack, in text and --json", async () => {
    const id = await pg.enqueue({ name: 'sync-ledger', queue: 'ledger', maxAttempts: 2 });
    const first = await pg.claim('ledger');
    const upstream = new Error('upstream returned 500 token=tok_live', {
      cause: new TypeError('socket hang up'),
    });
    const error = { code: 'ERROR', message: 'upstream returned 500' };
    await pg.driver.nack(first.id, first.claim, {
      kind: 'retry',
      runAt: pg.driver.now() - 1,
      error,
      failure: attemptFailureOf(upstream, { attempt: 1, step: 'post-entries' }),
    });
    const second = await pg.claim('ledger');
    await pg.driver.nack(second.id, second.claim, {
      kind: 'dead',
      error,
      stopReason: 'attempts-exhausted',
      failure: attemptFailureOf(Object.assign(new Error('still 500'), { code: 'E_UPSTREAM' }), {
        attempt: 2,
        step: null,
      }),
    });
    const { job } = (await pg.cli(['show', id, '--json'])).json<ShowJson>();
    expect(job.errors).toMatchObject([
      {
        attempt: 1,
        name: 'Error',
        code: 'ERROR',
        message: 'upstream returned 500 token=[redacted]',
        step: 'post-entries',
      },
      { attempt: 2, name: 'Error', code: 'E_UPSTREAM', message: 'still 500', step: null },
    ]);
    expect(job.errors[0]?.stack).toContain('show.test');
    expect(job.errors[0]?.causes).toMatchObject([{ name: 'TypeError', message: 'socket hang up' }]);

    const text = await pg.cli(['show', id]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /Failed attempts\n\s+#1 .* ERROR Error: upstream returned 500 token=\[redacted\] in step post-entries\n\s+Error: upstream returned 500/,
    );
    expect(text.stdout).toMatch(/\s+at .*show\.test/);
    expect(text.stdout).toContain('Caused by: TypeError: socket hang up');
    expect(text.stdout).toMatch(/#2 .* E_UPSTREAM Error: still 500/);
    expect(text.stdout).not.toContain('tok_live');
  });
});
