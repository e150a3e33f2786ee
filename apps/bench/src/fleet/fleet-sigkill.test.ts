import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineJobs, type JobDriver, resetJobDriver, setJobDriver } from '@x/jobs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '../clock.js';
import { WorkerProcessHandle } from '../host/worker-process-handle.js';
import { dropFleetSpace, type FleetBackend, openFleetDriver } from './fleet-backend.js';
import * as jobs from './fleet-job.js';
import { fleetJob } from './fleet-job.js';
import { liveCount } from './fleet-space.js';

const CHILD = fileURLToPath(new URL('./fleet-child.ts', import.meta.url));
/** The children run this package's TypeScript and the @x packages' source, as the tests do. */
const CHILD_EXEC_ARGV = ['--import', 'tsx', '--conditions=@x/source'];

/**
 * Per backend: jobs, and each handler's time, sized so several kills land while rows wait in
 * prefetch buffers and a run stays under a minute on a loaded 2-core machine. The handler time
 * is a floor on the drain (jobs × jobMs / (processes × concurrency): 3 s for both), so even an
 * idle machine cannot finish before the second kill (a drain of 2,000 10 ms jobs took 6 s on a
 * quiet machine and saw one kill).
 */
const SIZES: Readonly<Record<FleetBackend, { readonly jobs: number; readonly jobMs: number }>> = {
  pg: { jobs: 2_000, jobMs: 45 },
  redis: { jobs: 3_000, jobMs: 30 },
};
const PROCESSES = 3;
const CONCURRENCY = 10;
const LEASE_MS = 2_500;
const KILL_EVERY_MS = 1_500;
/** The first kill comes sooner, once the first claims have filled the prefetch buffers. */
const FIRST_KILL_MS = 600;
const DRAIN_TIMEOUT_MS = 90_000;

/** Runs per id in every process's log, and in the logs of processes that were never killed. */
function runsPerJob(directory: string, killed: ReadonlySet<string>, jobs: number) {
  const all = new Uint16Array(jobs);
  const inSurvivors = new Uint16Array(jobs);
  for (const file of readdirSync(directory)) {
    const survived = !killed.has(join(directory, file));
    for (const line of readFileSync(join(directory, file), 'utf8').split('\n')) {
      const id = Number(line);
      if (line === '' || !(id >= 0 && id < jobs)) continue;
      all[id] = (all[id] as number) + 1;
      if (survived) inSurvivors[id] = (inSurvivors[id] as number) + 1;
    }
  }
  return { all, inSurvivors };
}

async function deadIds(driver: JobDriver): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await driver.introspect!.list({ state: 'dead', limit: 500, ...(cursor ? { cursor } : {}) });
    for (const row of page.jobs) ids.push((row.payload as { i: number }).i);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return ids;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  resetJobDriver();
});

/**
 * The fleet under SIGKILL, with `retry: { attempts: 2 }`: several worker processes drain a few
 * thousand jobs while one of them is SIGKILLed every 1.5 s and replaced. An attempt counts only
 * when its body starts, so a row claimed into a killed process's prefetch buffer comes back
 * uncounted: no job may die without its handler ever running, none may be lost, and a job may run
 * more than once only in processes that were killed (its lease lapsed with them).
 */
describe.each<FleetBackend>(['pg', 'redis'])('fleet SIGKILL storm on %s (attempts: 2)', (backend) => {
  it('kills no job that never ran, loses none, and repeats runs only in killed processes', {
    timeout: 120_000,
  }, async () => {
    const { jobs: JOBS, jobMs: JOB_MS } = SIZES[backend];
    const space = `fleet_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const directory = mkdtempSync(join(tmpdir(), `fleet-${backend}-`));
    cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
    defineJobs({ jobs: [jobs] });
    const driver = await openFleetDriver(backend, space);
    cleanups.push(async () => {
      await driver.close();
      await dropFleetSpace(backend, space);
    });
    setJobDriver(driver);

    let generation = 0;
    const killedLogs = new Set<string>();
    const spawn = () => {
      generation += 1;
      const logFile = join(directory, `worker-${generation}.log`);
      return WorkerProcessHandle.fork({
        entry: CHILD,
        args: [backend, space, logFile, String(LEASE_MS), String(JOB_MS), String(CONCURRENCY)],
        execArgv: CHILD_EXEC_ARGV,
        logFile,
      });
    };
    const workers: (WorkerProcessHandle | null)[] = await Promise.all(
      Array.from({ length: PROCESSES }, spawn),
    );
    cleanups.push(async () => {
      for (const worker of workers) worker?.kill();
    });
    for (let start = 0; start < JOBS; start += 1_000) {
      await fleetJob.enqueueMany(
        Array.from({ length: Math.min(1_000, JOBS - start) }, (_, k) => ({ i: start + k })),
      );
    }
    for (const worker of workers) worker?.go();

    let kills = 0;
    let stopping = false;
    const restarts: Promise<void>[] = [];
    const controller = (async () => {
      while (!stopping) {
        await sleep(kills === 0 ? FIRST_KILL_MS : KILL_EVERY_MS);
        if (stopping) break;
        const running = workers.flatMap((worker, slot) => (worker ? [slot] : []));
        // Replacements take seconds to start on a loaded machine: never kill the last one running.
        if (running.length < 2) continue;
        const slot = running[Math.floor(Math.random() * running.length)];
        const victim = slot === undefined ? null : workers[slot];
        if (slot === undefined || !victim) continue;
        workers[slot] = null;
        victim.kill();
        if (victim.logFile !== undefined) killedLogs.add(victim.logFile);
        kills += 1;
        restarts.push(
          victim.exited.then(spawn).then((replacement) => {
            if (stopping) replacement.kill();
            else {
              workers[slot] = replacement;
              replacement.go();
            }
          }),
        );
      }
    })();

    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    for (
      let live = await liveCount(driver), polls = 0;
      live > 0;
      live = await liveCount(driver), polls += 1
    ) {
      if (Date.now() > deadline) throw new Error(`fleet ${backend}: ${live} jobs still live at the deadline`);
      if (polls % 20 === 0) console.log(`fleet ${backend}: ${live} live, ${kills} kills`);
      await sleep(250);
    }
    stopping = true;
    await controller;
    await Promise.allSettled(restarts);
    await Promise.all(workers.map((worker) => worker?.stop()));

    const runs = runsPerJob(directory, killedLogs, JOBS);
    const dead = await deadIds(driver);
    const stats = (await driver.stats()).find((queue) => queue.queue === 'fleet');
    expect(kills).toBeGreaterThanOrEqual(2);
    // None lost: every row ended (done or dead), and every job's handler ran at least once.
    expect((stats?.counts.done ?? 0) + (stats?.counts.dead ?? 0)).toBe(JOBS);
    const neverRan = Array.from(runs.all.entries())
      .filter(([, n]) => n === 0)
      .map(([id]) => id);
    expect(neverRan).toEqual([]);
    // No job died without its handler running: each dead one ran in a killed process.
    expect(dead.filter((id) => (runs.all[id] as number) === 0)).toEqual([]);
    // Repeats only where a process was killed.
    const repeatedInSurvivors = Array.from(runs.inSurvivors.entries()).filter(([, n]) => n > 1);
    expect(repeatedInSurvivors).toEqual([]);
  });
});
