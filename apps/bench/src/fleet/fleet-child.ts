import { closeSync, openSync, writeSync } from 'node:fs';
import { createWorker, defineJobs, silentLogger, type Worker } from '@x/jobs-core';
import { sleep } from '../clock.js';
import type { FromWorkerProcess, ToWorkerProcess } from '../host/worker-protocol.js';
import { type FleetBackend, openFleetDriver } from './fleet-backend.js';
import * as jobs from './fleet-job.js';
import { routeFleetJob } from './fleet-job.js';

/**
 * Entry of one fleet test worker process:
 * `fleet-child.ts <pg|redis> <space> <logFile> <leaseMs> <jobMs> <concurrency>`. Speaks the host
 * protocol (`ready`, then `go` starts the worker, `stop` stops it); appends each run's id to
 * `logFile` before the handler's work, so a run killed mid-handler is in the log.
 */
async function main(): Promise<void> {
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
  let worker: Worker | null = null;
  process.on('message', (message: ToWorkerProcess) => {
    if (message.kind === 'go') {
      worker = createWorker({
        driver,
        context: () => ({}),
        queues: ['fleet'],
        concurrency: Number(concurrency),
        visibilityTimeoutMs: Number(leaseMs),
        handleSignals: false,
        logger: silentLogger,
      });
      void worker.start();
    } else if (message.kind === 'stop') {
      void (async () => {
        await worker?.stop();
        await driver.close();
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
