import { expectHealthAcrossRestart } from '@x/jobs-conformance';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { postgresJobDriver } from '../src/postgres-job-driver.js';
import type { PostgresJobDriver } from '../src/sql-job-driver.js';
import { PgServerProcess } from './pg-server-process.js';

/** This test's own PostgreSQL (the port range of this suite's throwaway servers). */
const PORT = 7311;

// A worker under which its PostgreSQL restarts (pg_ctl stop -m fast, then start): readiness drops
// at the next claim (a refused connection fails at once), liveness holds, and both come back by
// themselves, with jobs running again.
describe('worker.health() across a restart of its PostgreSQL', { timeout: 180_000 }, () => {
  let server: PgServerProcess;
  let driver: PostgresJobDriver;
  beforeAll(async () => {
    server = await PgServerProcess.launch(PORT);
    driver = postgresJobDriver({ connectionString: server.url });
  });
  afterAll(async () => {
    await driver?.close();
    await server?.destroy();
  });

  it('ready, then unready while the server is down (live throughout), then ready and consuming again', async () => {
    await expectHealthAcrossRestart({
      driver,
      stopServer: () => server.stop(),
      startServer: () => server.start(),
    });
  });
});
