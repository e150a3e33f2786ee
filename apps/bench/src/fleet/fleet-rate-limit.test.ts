import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineJobs, resetJobDriver, setJobDriver } from '@x/jobs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '../clock.js';
import { WorkerProcessHandle } from '../host/worker-process-handle.js';
import { dropFleetSpace, type FleetBackend, openFleetDriver } from './fleet-backend.js';
import * as jobs from './fleet-rate-limit-job.js';
import { FLEET_RATE_LIMIT, FLEET_RATE_PER_MS, rateLimitedJob } from './fleet-rate-limit-job.js';

const CHILD = fileURLToPath(new URL('./fleet-rate-limit-child.ts', import.meta.url));
const CHILD_EXEC_ARGV = ['--import', 'tsx', '--conditions=@x/source'];
const PROCESSES = 3;
/** Four windows' worth: the fleet needs about 9 s, whatever its size. */
const JOBS = FLEET_RATE_LIMIT * 4;
const DRAIN_TIMEOUT_MS = 180_000;

/** What every process's log says: runs per id, refusals, and the multiset of grants it saw. */
function readLogs(directory: string) {
  const runs = new Map<number, number>();
  let refused = 0;
  // A grant time seen k times in one snapshot is k grants; across snapshots, the most seen at once.
  const grants = new Map<number, number>();
  for (const file of readdirSync(directory)) {
    for (const line of readFileSync(join(directory, file), 'utf8').split('\n')) {
      if (line === 'refused') refused += 1;
      const match = /^run (\d+) (.*)$/.exec(line);
      if (match === null) continue;
      runs.set(Number(match[1]), (runs.get(Number(match[1])) ?? 0) + 1);
      const seen = new Map<number, number>();
      for (const at of JSON.parse(match[2] as string) as number[]) seen.set(at, (seen.get(at) ?? 0) + 1);
      for (const [at, k] of seen) grants.set(at, Math.max(grants.get(at) ?? 0, k));
    }
  }
  const log = [...grants].flatMap(([at, k]) => Array.from({ length: k }, () => at)).sort((a, b) => a - b);
  return { runs, refused, log };
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  resetJobDriver();
});

/**
 * `job.rateLimit` across a fleet: three worker processes race over one job limited to 3 starts per
 * 3 s. The grant times are the store's own (server clock), read from the backend by each body as
 * it starts, so the check is exact: no window of 3 s holds a fourth grant. Every job runs once and
 * ends `done` with one attempt: deferrals (there are many) charge none.
 */
describe.each<FleetBackend>(['pg', 'redis'])('fleet rate limit on %s', (backend) => {
  it('never starts more than the limit in any window, and runs every job once, uncounted deferrals', {
    timeout: 240_000,
  }, async () => {
    const space = `fleet_rate_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const directory = mkdtempSync(join(tmpdir(), `fleet-rate-${backend}-`));
    cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
    defineJobs({ jobs: [jobs] });
    const driver = await openFleetDriver(backend, space);
    cleanups.push(async () => {
      await driver.close();
      await dropFleetSpace(backend, space);
    });
    setJobDriver(driver);
    const workers = await Promise.all(
      Array.from({ length: PROCESSES }, (_, k) =>
        WorkerProcessHandle.fork({
          entry: CHILD,
          args: [backend, space, join(directory, `worker-${k}.log`)],
          execArgv: CHILD_EXEC_ARGV,
        }),
      ),
    );
    cleanups.push(async () => {
      for (const worker of workers) worker.kill();
    });
    const ids = (await rateLimitedJob.enqueueMany(Array.from({ length: JOBS }, (_, i) => ({ i })))).map(
      (result) => result.id,
    );
    for (const worker of workers) worker.go();

    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    const doneCount = async () =>
      (await driver.stats()).find((queue) => queue.queue === 'fleet-rate')?.counts.done ?? 0;
    for (let done = await doneCount(); done < JOBS; done = await doneCount()) {
      if (Date.now() > deadline)
        throw new Error(`fleet rate ${backend}: ${done} of ${JOBS} done at the deadline`);
      await sleep(250);
    }
    await Promise.all(workers.map((worker) => worker.stop()));

    const { runs, refused, log } = readLogs(directory);
    expect(
      [...runs.keys()].sort((a, b) => a - b),
      'every job ran',
    ).toEqual(ids.map((_, i) => i));
    expect(
      [...runs.values()].every((n) => n === 1),
      'each once',
    ).toBe(true);
    expect(refused, 'runs over the limit were deferred').toBeGreaterThan(0);
    expect(log, 'one grant per run, each seen by its own body').toHaveLength(JOBS);
    const crowded = log.flatMap((at, i) => {
      const next = log[i + FLEET_RATE_LIMIT];
      return next !== undefined && next - at < FLEET_RATE_PER_MS ? [[at, next]] : [];
    });
    expect(crowded, `no window of ${FLEET_RATE_PER_MS} ms holds ${FLEET_RATE_LIMIT + 1} grants`).toEqual([]);
    for (const id of ids) {
      const row = await driver.introspect?.get(id);
      expect(row?.state).toBe('done');
      expect(row?.attempts, 'deferrals charge no attempt').toBe(1);
    }
  });
});
