import { closeSync, openSync, writeSync } from 'node:fs';
import { createWorker, defineJobs, silentLogger } from '@x/jobs-core';
import { sleep } from '../clock.js';
import * as jobs from './fair-job.js';
import { FAIR_QUEUE, routeFairJob } from './fair-job.js';
import { type FleetBackend, openFleetDriver } from './fleet-backend.js';
import { serveWorkerChild } from './serve-worker-child.js';

/**
 * Entry of one fair fleet test worker process: `fair-child.ts <pg|redis> <space> <logFile> <jobMs>`.
 * Its driver claims the fair queue with `fairness: 'tenant'`; it appends `<tenant> <i> <epoch ms>`
 * per run to `logFile` as the handler starts.
 */
serveWorkerChild(async () => {
  const [backend, space = '', logFile = '', jobMs = '0'] = process.argv.slice(2);
  if (backend !== 'pg' && backend !== 'redis') throw new Error(`fair-child: unknown backend ${backend}`);
  defineJobs({ jobs: [jobs] });
  const driver = await openFleetDriver(backend as FleetBackend, space, {
    [FAIR_QUEUE]: { fairness: 'tenant' },
  });
  const log = openSync(logFile, 'a');
  routeFairJob(async (i, tenant) => {
    writeSync(log, `${tenant} ${i} ${Date.now()}\n`);
    if (Number(jobMs) > 0) await sleep(Number(jobMs));
  });
  return {
    start() {
      const worker = createWorker({
        driver,
        context: () => ({}),
        queues: [FAIR_QUEUE],
        concurrency: 5,
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
