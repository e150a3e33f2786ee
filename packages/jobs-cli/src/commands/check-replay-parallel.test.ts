import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import type { CheckReplayJson } from './check-replay.js';

const V1 = 'test-support/fixtures/replay-fanout-v1.mjs';
const V2 = 'test-support/fixtures/replay-fanout-v2.mjs';
const LONG = 24 * 3600_000;

describe('x-jobs check-replay over step.invoke and a Promise.all fan-out (PostgreSQL)', {
  timeout: 120_000,
}, () => {
  let pg: PgFixture;
  let deliveringId: string;
  let invokingId: string;
  beforeAll(async () => {
    pg = await pgFixture();
    const now = pg.driver.now();
    // A run past its fan-out (finished in reverse call order), parked on its delivery sleep.
    deliveringId = await pg.enqueue({
      name: 'replay.report',
      queue: 'replay-fan-1',
      payload: { month: '2026-11' },
    });
    const delivering = await pg.claim('replay-fan-1');
    const completed = (name: string, position: number, output: never, after: number) =>
      pg.saveStep(delivering, { name, position, status: 'completed', output, completedAt: now + after });
    await completed('sales', 0, 120 as never, 30);
    await completed('costs', 1, 80 as never, 20);
    await completed('chart', 2, { url: 'https://charts/2026-11.png' } as never, 10);
    await pg.saveStep(delivering, {
      name: 'deliver',
      position: 3,
      status: 'started',
      output: { wakeAt: now + LONG },
    });
    expect(
      await pg.driver.nack(delivering.id, delivering.claim, { kind: 'suspend', runAt: now + LONG }),
    ).toBe(true);
    // A run inside its fan-out: sales and costs done, the chart's child still running.
    invokingId = await pg.enqueue({
      name: 'replay.report',
      queue: 'replay-fan-2',
      payload: { month: '2026-12' },
    });
    const invoking = await pg.claim('replay-fan-2');
    await pg.saveStep(invoking, {
      name: 'sales',
      position: 0,
      status: 'completed',
      output: 1,
      completedAt: now,
    });
    await pg.saveStep(invoking, {
      name: 'costs',
      position: 1,
      status: 'completed',
      output: 2,
      completedAt: now,
    });
    await pg.saveStep(invoking, {
      name: 'chart',
      position: 2,
      status: 'started',
      output: { invoke: { childId: 'child-of-2026-12', invocation: 0, cancelWithParent: true }, since: now },
    });
    expect(
      await pg.driver.nack(invoking.id, invoking.claim, {
        kind: 'suspend',
        runAt: now + LONG,
        waitFor: `x-jobs.invoke:${invoking.runId}`,
      }),
    ).toBe(true);
  });
  afterAll(() => pg?.drop());

  it('passes on the code that recorded them: the invoke answers its child result, the fan-out its call positions', async () => {
    const run = await pg.cli(['check-replay', '--module', V1, '--json', '--all']);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<CheckReplayJson>();
    expect(report).toMatchObject({ checked: 2, diverging: 0, failed: 0 });
    const byId = new Map(report.runs.map((checked) => [checked.id, checked.result]));
    expect(byId.get(deliveringId)).toEqual({ status: 'matches', replayed: 3 });
    expect(byId.get(invokingId)).toEqual({ status: 'matches', replayed: 2 });
  });

  it('reports a renamed parallel step at its position and exits 1', async () => {
    const run = await pg.cli(['check-replay', '--module', V2, '--json']);
    expect(run.code).toBe(1);
    const report = run.json<CheckReplayJson>();
    expect(report).toMatchObject({ checked: 2, diverging: 2, failed: 0 });
    for (const checked of report.runs) {
      expect(checked.result).toMatchObject({
        status: 'diverges',
        divergence: { position: 1, recorded: { name: 'costs' }, asked: { name: 'spend', kind: 'run' } },
      });
    }
  });
});
