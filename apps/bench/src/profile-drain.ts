import { JobTally } from './job-tally.js';
import { isSystemName, loadSystem } from './systems/catalog.js';
import { makePayloads, waitDrained } from './workloads/drain.js';

/**
 * One in-process drain of one system, nothing else: the entry to run under `node --cpu-prof`
 * (see README, Profiling). `profile-drain.ts <system> [jobs=20000] [concurrency=10]`.
 */
async function main(): Promise<void> {
  const [name = '', jobsArg = '20000', concurrencyArg = '10'] = process.argv.slice(2);
  if (!isSystemName(name)) throw new Error(`usage: profile-drain.ts <system> [jobs] [concurrency]`);
  const total = Number(jobsArg);
  const system = await loadSystem(name);
  await system.setup();
  await system.reset();
  await system.enqueueBulk(makePayloads(0, total));
  const tally = new JobTally(total);
  const cpuBefore = process.cpuUsage();
  const worker = await system.startWorker({ concurrency: Number(concurrencyArg), onJob: tally.record });
  const drainedAt = await waitDrained(system, tally, total, 300_000);
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    `${name}: drained ${total} jobs at ${Math.round(total / ((drainedAt - tally.firstAt) / 1000))} jobs/s,` +
      ` this process's CPU ${((cpu.user + cpu.system) / total).toFixed(1)} µs per job`,
  );
  await worker.stop();
  await system.close();
}

await main();
