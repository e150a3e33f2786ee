import type { ShowJson } from '@x/jobs-dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import { parseResolution, type ResolveStepJson } from './resolve-step.js';

describe('parseResolution', () => {
  it('reads --ran with a JSON output, and --not-ran', () => {
    expect(parseResolution({ ran: true, output: '{"chargeId":"ch_1"}' })).toEqual({
      ran: true,
      output: { chargeId: 'ch_1' },
    });
    expect(parseResolution({ ran: true, output: 'null' })).toEqual({ ran: true, output: null });
    expect(parseResolution({ notRan: true })).toEqual({ ran: false });
  });

  it.each<[{ ran?: boolean; notRan?: boolean; output?: string }, string]>([
    [{}, 'neither flag'],
    [{ ran: true, notRan: true }, 'both flags'],
    [{ ran: true }, '--ran without --output'],
    [{ ran: true, output: '{oops' }, 'malformed JSON'],
    [{ notRan: true, output: '1' }, '--output with --not-ran'],
  ])('refuses %j (%s) as a usage error', (flags) => {
    expect(() => parseResolution(flags)).toThrow(expect.objectContaining({ code: 'X_CLI_USAGE' }));
  });
});

describe('x-jobs resolve-step (PostgreSQL)', () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg?.drop());

  /** A job dead on X_STEP_OUTCOME_UNKNOWN: its once-step `charge` was left `started` by a crash. */
  async function unresolved(queue: string): Promise<string> {
    await pg.enqueue({ name: 'checkout', queue, maxAttempts: 1 });
    const claimed = await pg.claim(queue);
    await pg.saveStep(claimed, {
      name: 'reserve',
      position: 0,
      status: 'completed',
      completedAt: pg.driver.now(),
    });
    await pg.saveStep(claimed, { name: 'charge', position: 1, status: 'started' });
    await pg.driver.nack(claimed.id, claimed.claim, {
      kind: 'dead',
      error: { code: 'X_STEP_OUTCOME_UNKNOWN', message: 'charge started and never completed' },
      stopReason: 'terminal',
    });
    return claimed.id;
  }

  it('records a started step as completed with the output the operator gives', async () => {
    const id = await unresolved('resolve-ran');
    const run = await pg.cli([
      'resolve-step',
      id,
      'charge',
      '--ran',
      '--output',
      '{"chargeId":"ch_1"}',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<ResolveStepJson>()).toEqual({ id, step: 'charge', resolution: 'ran' });
    const shown = (await pg.cli(['show', id, '--json'])).json<ShowJson>();
    expect(shown.job.steps[1]).toMatchObject({
      name: 'charge',
      status: 'completed',
      output: { chargeId: 'ch_1' },
    });
  });

  it('deletes a started step the operator says did not run, and points at retry', async () => {
    const id = await unresolved('resolve-not-ran');
    const run = await pg.cli(['resolve-step', id, 'charge', '--not-ran']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`x-jobs retry ${id}`);
    const shown = (await pg.cli(['show', id, '--json'])).json<ShowJson>();
    expect(shown.job.steps.map((step) => step.name)).toEqual(['reserve']);
  });

  it('refuses a completed step (exit 1) and a missing --output (exit 2)', async () => {
    const id = await unresolved('resolve-refused');
    const completed = await pg.cli(['resolve-step', id, 'reserve', '--not-ran', '--json']);
    expect(completed.code).toBe(1);
    expect(completed.json<{ error: { code: string } }>().error.code).toBe('X_CLI_STEP_NOT_STARTED');

    const usage = await pg.cli(['resolve-step', id, 'charge', '--ran']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--ran needs --output <json>');
    expect(usage.stderr).toContain(
      'usage: x-jobs resolve-step <id> <step> (--ran --output <json> | --not-ran)',
    );
  });
});
