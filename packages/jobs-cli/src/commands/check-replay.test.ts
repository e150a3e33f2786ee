import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import type { CheckReplayJson } from './check-replay.js';

const V1 = 'test-support/fixtures/replay-v1.mjs';
const V2 = 'test-support/fixtures/replay-v2.mjs';
const LONG = 24 * 3600_000;

describe('x-jobs check-replay (PostgreSQL)', { timeout: 120_000 }, () => {
  let pg: PgFixture;
  let parkedId: string;
  beforeAll(async () => {
    pg = await pgFixture();
    // A run parked on its wait after two steps, as replay-v1's code recorded it.
    parkedId = await pg.enqueue({ name: 'replay.checkout', queue: 'replay-q', payload: { orderId: 'o-1' } });
    const job = await pg.claim('replay-q');
    await pg.saveStep(job, { name: 'reserve', position: 0, status: 'completed', output: 'reserved o-1' });
    await pg.saveStep(job, { name: 'charge', position: 1, status: 'completed', output: { amount: 120 } });
    const now = pg.driver.now();
    await pg.saveStep(job, {
      name: 'shipped',
      position: 2,
      status: 'started',
      output: { since: now, deadline: now + LONG },
    });
    expect(
      await pg.driver.nack(job.id, job.claim, {
        kind: 'suspend',
        runAt: now + LONG,
        waitFor: 'order.shipped',
      }),
    ).toBe(true);
    // A delayed run with no steps yet, and a finished one (not live: never checked).
    await pg.enqueue({
      name: 'replay.checkout',
      queue: 'replay-q',
      payload: { orderId: 'o-2' },
      runAt: now + LONG,
    });
    await pg.enqueue({ name: 'replay.checkout', queue: 'replay-done', payload: { orderId: 'o-3' } });
    const finished = await pg.claim('replay-done');
    await pg.driver.ack(finished.id, finished.claim);
  });
  afterAll(() => pg?.drop());

  it('passes (exit 0) when every live run replays on the code that recorded it', async () => {
    const run = await pg.cli(['check-replay', '--module', V1, '--json', '--all']);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<CheckReplayJson>();
    expect(report).toMatchObject({ checked: 2, diverging: 0, failed: 0 });
    expect(report.runs.find((checked) => checked.id === parkedId)?.result).toEqual({
      status: 'matches',
      replayed: 2,
    });
    const text = await pg.cli(['check-replay', '--module', V1]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('All 2 live run(s) replay on this code.');
  });

  it('reports the first point of divergence and exits 1 when the new code asks for steps in another order', async () => {
    const before = await pg.driver.steps.load((await pg.driver.introspect!.get(parkedId))!.runId);
    const run = await pg.cli(['check-replay', '--module', V2, '--json']);
    expect(run.code).toBe(1);
    const report = run.json<CheckReplayJson>();
    expect(report).toMatchObject({ checked: 2, diverging: 1, failed: 0 });
    expect(report.runs).toHaveLength(1);
    expect(report.runs[0]).toMatchObject({
      id: parkedId,
      state: 'suspended',
      result: {
        status: 'diverges',
        replayed: 0,
        divergence: { position: 0, recorded: { name: 'reserve' }, asked: { name: 'charge', kind: 'run' } },
      },
    });
    const text = await pg.cli(['check-replay', '--module', V2]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`diverges replay.checkout ${parkedId} (suspended) at step 0`);
    expect(text.stdout).toContain('1 of 2 live run(s) would diverge');
    // Nothing was written: the recorded history and the row are as they were.
    const detail = await pg.driver.introspect!.get(parkedId);
    expect(detail).toMatchObject({ state: 'suspended', attempts: 0 });
    expect(await pg.driver.steps.load(detail!.runId)).toEqual(before);
  });
});
