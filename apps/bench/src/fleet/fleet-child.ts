import { closeSync, openSync, writeSync } from 'node:fs';
import { createWorker, defineJobs, silentLogger } from '@x/jobs-core';
import { sleep } from '../clock.js';
import { type FleetBackend, openFleetDriver } from './fleet-backend.js';
import * as jobs from './fleet-job.js';
import { routeFleetJob } from './fleet-job.js';
import { serveWorkerChild } from './serve-worker-child.js';

/**
 * Entry of one fleet test worker process:
 * `fleet-child.ts <pg|redis> <space> <logFile> <leaseMs> <jobMs> <concurrency>`. Speaks the host
 * protocol (`ready`, then `go` starts the worker, `stop` stops it); appends each run's id to
 * `logFile` before the handler's work, so a run killed mid-handler is in the log.
 */
serveWorkerChild(async () => {
  const [backend, space = '', logFile = '', leaseMs = '3000', jobMs = '0', concurrency = '10'] =
    process.argv.slice(2);
  if (backend !== 'pg' && backend !== 'redis') throw new Error(`fleet-child: unknown backend ${backend}`);
  defineJobs({ jobs: [jobs] });
  const driver = await openFleetDriver(backend as FleetBackend, space);
  const log = openSync(logFile, 'a');
  routeFleetJob(async (i) => {
    writeSync(log, `${i}\n`);
    if (Number(jobMs) > 0) await sleep(Number(jobMs));
  });
  return {
    start() {
      const worker = createWorker({
        driver,
        context: () => ({}),
        queues: ['fleet'],
        concurrency: Number(concurrency),
        visibilityTimeoutMs: Number(leaseMs),
        handleSignals: false,
        logger: silentLogger,
      });
      void worker.start();
      return worker;
    },
    async close() {
      await driver.close();
      closeSync(log);
    },
  };
});
