import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { epochNow, sleep } from '../clock.js';
import { WorkerProcessHandle } from '../host/worker-process-handle.js';
import type { SystemName } from '../systems/catalog.js';
import { makePayloads } from './drain.js';
import type { Workload } from './workload.js';

/**
 * Systems that reclaim a killed worker's jobs by themselves within a bench run: ours (leases) and
 * BullMQ (stalled-job check, 30 s lock by default). graphile-worker (4 h lock), pg-boss (15 min
 * expiry) and the raw limits (no recovery at all) would leave the run waiting.
 */
const RECOVERING_SYSTEMS: readonly SystemName[] = ['x-pg', 'x-redis', 'bullmq'];

/** Counts how many times each id `0 … size-1` appears in the processes' job logs. */
/** Runs per job id across every process's log, and how many of them were in a process that lived. */
function runsPerJob(
  directory: string,
  size: number,
  killed: ReadonlySet<string>,
): { readonly all: Uint16Array; readonly inSurvivors: Uint16Array } {
  const all = new Uint16Array(size);
  const inSurvivors = new Uint16Array(size);
  for (const file of readdirSync(directory)) {
    const survived = !killed.has(join(directory, file));
    for (const line of readFileSync(join(directory, file), 'utf8').split('\n')) {
      if (line === '') continue;
      const id = Number(line);
      if (!(id >= 0 && id < size)) continue;
      all[id] = (all[id] as number) + 1;
      if (survived) inSurvivors[id] = (inSurvivors[id] as number) + 1;
    }
  }
  return { all, inSurvivors };
}

/**
 * Fleet fault run: `fleetProcesses` worker processes drain `fleetJobs` while a controller SIGKILLs
 * a random one every `fleetKillEveryMs` and starts a replacement. Claims are leased for
 * `fleetLeaseMs` (5 s), so a killed worker's jobs come back within the run; each handler takes
 * `fleetJobMs` (5 ms), so a kill lands on jobs mid-handler, whose lease must lapse before they
 * run again: those are the "ran more than once" (and so are jobs that finished in the victim while
 * their ack was still batched). Each process appends a job's id to its log before the handler
 * returns, so the logs hold every run that happened, killed ones too. At the end every job must
 * have run (none lost); jobs that ran twice are reported, and any that ran twice in processes that
 * lived ("unexplained") would be a broken guarantee.
 */
export const fleetFaults: Workload = {
  id: 'fleet',
  title: 'Fleet — SIGKILL a random worker every 2 s',
  metrics: [
    { key: 'lost', label: 'lost', unit: 'jobs', better: 'lower' },
    { key: 'twice', label: 'ran more than once', unit: 'jobs', better: 'lower' },
    {
      key: 'unexplained',
      label: 'ran more than once outside a killed process',
      unit: 'jobs',
      better: 'lower',
    },
    { key: 'dead', label: 'failed / dead-lettered', unit: 'jobs', better: 'lower' },
    { key: 'kills', label: 'SIGKILLs', unit: 'count', better: 'higher' },
    { key: 'seconds', label: 'time to drain', unit: 's', better: 'lower' },
  ],
  appliesTo: (name) => RECOVERING_SYSTEMS.includes(name),
  runsFor: () => 1,
  async run({ name, system, settings }) {
    const total = settings.fleetJobs;
    await system.reset();
    await system.enqueueBulk(makePayloads(0, total));
    const directory = mkdtempSync(join(tmpdir(), `bench-fleet-${name}-`));
    let generation = 0;
    /** The logs of the processes that got SIGKILL. */
    const killedLogs = new Set<string>();
    const spawn = async (): Promise<WorkerProcessHandle> => {
      generation += 1;
      const worker = await WorkerProcessHandle.spawn({
        system: name,
        concurrency: settings.concurrency,
        logFile: join(directory, `worker-${generation}.log`),
        leaseMs: settings.fleetLeaseMs,
        jobMs: settings.fleetJobMs,
      });
      worker.go();
      return worker;
    };
    const workers: (WorkerProcessHandle | null)[] = await Promise.all(
      Array.from({ length: settings.fleetProcesses }, spawn),
    );
    const startedAt = epochNow();
    let kills = 0;
    let stopping = false;
    const restarts: Promise<void>[] = [];
    // Every period: SIGKILL a random running worker and start its replacement in the background,
    // so the kill rhythm does not wait for a replacement's start-up.
    const controller = (async () => {
      while (!stopping) {
        await sleep(settings.fleetKillEveryMs);
        if (stopping) break;
        const running = workers.flatMap((worker, slot) => (worker ? [slot] : []));
        const slot = running[Math.floor(Math.random() * running.length)];
        const victim = slot === undefined ? null : workers[slot];
        if (slot === undefined || !victim) continue;
        workers[slot] = null;
        victim.kill();
        if (victim.logFile !== undefined) killedLogs.add(victim.logFile);
        kills += 1;
        console.log(`fleet ${name}: SIGKILL #${kills} pid ${victim.pid} after ${victim.count} jobs reported`);
        restarts.push(
          victim.exited.then(spawn).then((replacement) => {
            workers[slot] = replacement;
          }),
        );
      }
    })();
    const settle = async (): Promise<void> => {
      stopping = true;
      await controller;
      await Promise.allSettled(restarts);
    };
    try {
      const deadline = Date.now() + settings.drainTimeoutMs;
      while ((await system.pending()) > 0) {
        if (Date.now() > deadline) throw new Error('fleet: timed out before the queue drained');
        await sleep(250);
      }
      const seconds = (epochNow() - startedAt) / 1000;
      await settle();
      await Promise.all(workers.map((worker) => worker?.stop()));
      const runs = runsPerJob(directory, total, killedLogs);
      let lost = 0;
      let twice = 0;
      let unexplained = 0;
      for (let id = 0; id < total; id += 1) {
        const n = runs.all[id] as number;
        if (n === 0) lost += 1;
        else if (n > 1) twice += 1;
        // A repeat is explained when every run but one was in a process that was killed: its
        // lease lapsed with the process (mid-handler, or finished with its ack still batched).
        // Two runs in processes that lived would mean a job ran twice without a lease lapsing.
        if ((runs.inSurvivors[id] as number) > 1) unexplained += 1;
      }
      const dead = (await system.failed?.()) ?? 0;
      return { lost, twice, unexplained, dead, kills, seconds };
    } finally {
      await settle().catch(() => {});
      for (const worker of workers) worker?.kill();
      // BENCH_KEEP_FLEET_LOGS=1 keeps the per-process job logs for a look at which ids repeated.
      if (process.env.BENCH_KEEP_FLEET_LOGS) console.log(`fleet ${name}: job logs kept in ${directory}`);
      else rmSync(directory, { recursive: true, force: true });
    }
  },
};
