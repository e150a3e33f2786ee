import { closeSync, openSync, writeSync } from 'node:fs';
import { createWorker, defineJobs, silentLogger, type Worker } from '@x/jobs-core';
import { sleep } from '../clock.js';
import type { FromWorkerProcess, ToWorkerProcess } from '../host/worker-protocol.js';
import { type FleetBackend, openFleetDriver } from './fleet-backend.js';
import * as jobs from './fair-job.js';
import { FAIR_QUEUE, routeFairJob } from './fair-job.js';

/**
 * Entry of one fair fleet test worker process: `fair-child.ts <pg|redis> <space> <logFile> <jobMs>`.
 * Its driver claims the fair queue with `fairness: 'tenant'`. Speaks the host protocol (`ready`,
 * `go`, `stop`); appends `<tenant> <i> <epoch ms>` per run to `logFile` as the handler starts.
 */
async function main(): Promise<void> {
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
  let worker: Worker | null = null;
  process.on('message', (message: ToWorkerProcess) => {
    if (message.kind === 'go') {
      worker = createWorker({
        driver,
        context: () => ({}),
        queues: [FAIR_QUEUE],
        concurrency: 5,
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
