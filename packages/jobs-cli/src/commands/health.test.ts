import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import { runCli, startCli } from '../../test-support/run-cli.js';
import type { HealthJson, ProbeJson } from './health.js';

const APP = path.resolve('test-support/fixtures/app.mjs');
/** The health port of the worker this file starts (the suite's port range for its own servers). */
const HEALTH_PORT = 7314;

describe('x-jobs health', { timeout: 120_000 }, () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg.drop());

  it('exits 0 on a reachable backend, 1 below --min-workers', async () => {
    const ok = await runCli(['health', '--driver', 'memory', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json<HealthJson>()).toMatchObject({ healthy: true, backend: 'reachable', workers: [] });
    const short = await runCli(['health', '--driver', 'memory', '--min-workers', '1']);
    expect(short.code).toBe(1);
  });

  it('a running worker with --health-port answers its probes; health --url and --min-workers read it; SIGTERM still exits 0', async () => {
    const worker = startCli(['worker', '--module', APP, '--health-port', String(HEALTH_PORT)], {
      env: { DATABASE_URL: pg.url, X_JOBS_SCHEMA: pg.schema },
    });
    try {
      await worker.waitFor('x-jobs.health.listening');
      const url = `http://127.0.0.1:${HEALTH_PORT}`;
      let ready: Awaited<ReturnType<typeof runCli>> | undefined;
      for (let tries = 0; tries < 100; tries += 1) {
        ready = await runCli(['health', '--url', `${url}/readyz`, '--json']);
        if (ready.code === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ready?.code, ready?.stdout).toBe(0);
      expect(ready?.json<ProbeJson>()).toMatchObject({
        healthy: true,
        status: 200,
        health: { live: true, ready: true },
      });
      const live = await fetch(`${url}/livez`);
      expect(live.status).toBe(200);
      const fleet = await pg.cli(['health', '--min-workers', '1', '--json']);
      expect(fleet.code, fleet.stderr).toBe(0);
      expect(fleet.json<HealthJson>().workers.length).toBeGreaterThanOrEqual(1);
    } finally {
      worker.child.kill('SIGTERM');
    }
    const exit = await worker.done;
    expect(exit.code, exit.stderr).toBe(0);
    const gone = await runCli(['health', '--url', `http://127.0.0.1:${HEALTH_PORT}/readyz`]);
    expect(gone.code).toBe(1);
  });
});
