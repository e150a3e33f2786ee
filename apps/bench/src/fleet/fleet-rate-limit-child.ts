import { closeSync, openSync, writeSync } from 'node:fs';
import { createWorker, defineJobs, type JobDriver, silentLogger, type Worker } from '@x/jobs-core';
import { Redis } from 'ioredis';
import pg from 'pg';
import { REDIS_URL } from '../endpoints.js';
import type { FromWorkerProcess, ToWorkerProcess } from '../host/worker-protocol.js';
import { type FleetBackend, fleetDatabaseUrl, openFleetDriver } from './fleet-backend.js';
import * as jobs from './fleet-rate-limit-job.js';
import { FLEET_RATE_BUCKET, routeRateLimitedJob } from './fleet-rate-limit-job.js';

/** Reads the store's log of the bucket straight from the backend: the grants still counting. */
async function openLogReader(
  backend: FleetBackend,
  space: string,
): Promise<{
  read(): Promise<number[]>;
  close(): Promise<void>;
}> {
  if (backend === 'redis') {
    const redis = new Redis(REDIS_URL);
    return {
      read: async () => (await redis.lrange(`{${space}}:rate:${FLEET_RATE_BUCKET}`, 0, -1)).map(Number),
      close: async () => void redis.disconnect(),
    };
  }
  const client = new pg.Client({ connectionString: fleetDatabaseUrl() });
  await client.connect();
  const table = `${pg.escapeIdentifier(space)}.rate_limits`;
  return {
    async read() {
      const { rows } = await client.query(`select grants from ${table} where key = $1`, [FLEET_RATE_BUCKET]);
      return ((rows[0]?.grants as string[] | undefined) ?? []).map(Number);
    },
    close: () => client.end(),
  };
}

/**
 * Entry of one rate-limit fleet worker process: `fleet-rate-limit-child.ts <pg|redis> <space>
 * <logFile>`. Speaks the host protocol. Appends `refused` for every refused take (the driver's
 * store wrapped), and for each run `run <i> <grants>`: the job's id and the store's log of the
 * bucket read from the backend as the body starts — the server-clock grant times, this run's
 * own among them, that the test checks the limit against.
 */
async function main(): Promise<void> {
  const [backend, space = '', logFile = ''] = process.argv.slice(2);
  if (backend !== 'pg' && backend !== 'redis') throw new Error(`fleet child: unknown backend ${backend}`);
  defineJobs({ jobs: [jobs] });
  const opened = await openFleetDriver(backend, space);
  const store = opened.rateLimits;
  if (store === undefined) throw new Error('the driver has no rate-limit store');
  const log = openSync(logFile, 'a');
  const driver: JobDriver = {
    ...opened,
    rateLimits: {
      async take(key, window) {
        const taken = await store.take(key, window);
        if (!taken.ok) writeSync(log, 'refused\n');
        return taken;
      },
    },
  };
  const reader = await openLogReader(backend, space);
  routeRateLimitedJob(async (i) => {
    writeSync(log, `run ${i} ${JSON.stringify(await reader.read())}\n`);
  });
  let worker: Worker | null = null;
  process.on('message', (message: ToWorkerProcess) => {
    if (message.kind === 'go') {
      worker = createWorker({
        driver,
        context: () => ({}),
        queues: ['fleet-rate'],
        concurrency: 4,
        idlePollMaxMs: 200,
        handleSignals: false,
        logger: silentLogger,
      });
      void worker.start();
    } else if (message.kind === 'stop') {
      void (async () => {
        await worker?.stop();
        await reader.close();
        await opened.close();
        closeSync(log);
        process.send?.({ kind: 'stopped' } satisfies FromWorkerProcess, () => process.exit(0));
      })();
    }
  });
  process.send?.({ kind: 'ready' } satisfies FromWorkerProcess);
}

main().catch((error: unknown) => {
  process.send?.({
    kind: 'failed',
    error: String((error as Error)?.stack ?? error),
  } satisfies FromWorkerProcess);
  process.exitCode = 1;
  process.disconnect?.();
});
