import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineJobs, resetJobDriver, setJobDriver } from '@x/jobs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '../clock.js';
import { WorkerProcessHandle } from '../host/worker-process-handle.js';
import * as jobs from './fair-job.js';
import { FAIR_QUEUE, fairJob } from './fair-job.js';
import { dropFleetSpace, type FleetBackend, openFleetDriver } from './fleet-backend.js';
import { liveCount } from './fleet-space.js';

const CHILD = fileURLToPath(new URL('./fair-child.ts', import.meta.url));
const CHILD_EXEC_ARGV = ['--import', 'tsx', '--conditions=@x/source'];
const PROCESSES = 3;
/** Tenant A's backlog, enqueued first, then tenant B's few jobs. */
const A_JOBS = 1_200;
const B_JOBS = 60;
const JOB_MS = 2;
const DRAIN_TIMEOUT_MS = 120_000;

/** One handler run from a process log: `<tenant> <i> <epoch ms>`. */
interface Run {
  readonly tenant: string;
  readonly i: number;
  readonly at: number;
}

function readRuns(directory: string): Run[] {
  const runs: Run[] = [];
  for (const file of readdirSync(directory)) {
    for (const line of readFileSync(join(directory, file), 'utf8').split('\n')) {
      const [tenant = '', i = '', at = ''] = line.split(' ');
      if (line !== '') runs.push({ tenant, i: Number(i), at: Number(at) });
    }
  }
  return runs;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  resetJobDriver();
});

/**
 * Fair claiming under racing worker processes: three processes, each a worker whose driver claims
 * the queue with `fairness: 'tenant'`, drain tenant A's backlog and tenant B's few jobs enqueued
 * after it. No row may be claimed twice (each job runs once: one attempt, no kills), and fairness
 * holds in aggregate: B's jobs are all done before half of A's backlog ran (in today's order B
 * would wait for all of it).
 */
describe.each<FleetBackend>(['pg', 'redis'])('fair claiming across worker processes on %s', (backend) => {
  it("runs every job once and serves tenant B's jobs long before tenant A's backlog ends", {
    timeout: 180_000,
  }, async () => {
    const space = `fair_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const directory = mkdtempSync(join(tmpdir(), `fair-${backend}-`));
    cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
    defineJobs({ jobs: [jobs] });
    const driver = await openFleetDriver(backend, space, { [FAIR_QUEUE]: { fairness: 'tenant' } });
    cleanups.push(async () => {
      await driver.close();
      await dropFleetSpace(backend, space);
    });
    setJobDriver(driver);
    const workers = await Promise.all(
      Array.from({ length: PROCESSES }, (_, n) => {
        const logFile = join(directory, `worker-${n}.log`);
        return WorkerProcessHandle.fork({
          entry: CHILD,
          args: [backend, space, logFile, String(JOB_MS)],
          execArgv: CHILD_EXEC_ARGV,
          logFile,
        });
      }),
    );
    cleanups.push(async () => {
      for (const worker of workers) worker.kill();
    });
    for (let start = 0; start < A_JOBS; start += 1_000) {
      const count = Math.min(1_000, A_JOBS - start);
      await fairJob.enqueueMany(Array.from({ length: count }, (_, k) => ({ i: start + k, tenant: 'a' })));
    }
    await fairJob.enqueueMany(Array.from({ length: B_JOBS }, (_, k) => ({ i: A_JOBS + k, tenant: 'b' })));
    for (const worker of workers) worker.go();

    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    for (let live = await liveCount(driver); live > 0; live = await liveCount(driver)) {
      if (Date.now() > deadline) throw new Error(`fair ${backend}: ${live} jobs still live at the deadline`);
      await sleep(250);
    }
    await Promise.all(workers.map((worker) => worker.stop()));

    const runs = readRuns(directory);
    const perJob = new Map<number, number>();
    for (const run of runs) perJob.set(run.i, (perJob.get(run.i) ?? 0) + 1);
    // Every job ran, and none twice: no row was handed to two claimers.
    expect(perJob.size).toBe(A_JOBS + B_JOBS);
    expect([...perJob.values()].filter((n) => n > 1)).toEqual([]);
    // In aggregate across the processes, B's jobs all ran before half of A's backlog did.
    const order = [...runs].sort((x, y) => x.at - y.at);
    const lastB = order.findLastIndex((run) => run.tenant === 'b');
    const aBeforeLastB = order.slice(0, lastB).filter((run) => run.tenant === 'a').length;
    expect(aBeforeLastB).toBeLessThan(A_JOBS / 2);
  });
});
