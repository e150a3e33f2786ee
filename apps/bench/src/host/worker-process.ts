import { closeSync, openSync, writeSync } from 'node:fs';
import { epochNow, sleep } from '../clock.js';
import type { BenchPayload, RunningWorker } from '../system.js';
import { isSystemName, loadSystem } from '../systems/catalog.js';
import type { FromWorkerProcess, ToWorkerProcess } from './worker-protocol.js';

/**
 * Entry of a forked worker process:
 * `worker-process.ts <system> <concurrency> [logFile|-] [leaseMs|-] [jobMs]`. Sets the
 * system up, starts its worker on `go`, reports progress every 20 ms, stops on `stop`.
 */
async function main(): Promise<void> {
  const [systemName = '', concurrencyArg = '10', logArg = '-', leaseArg = '-', jobMsArg = '0'] =
    process.argv.slice(2);
  const logFile = logArg === '-' ? undefined : logArg;
  const jobMs = Number(jobMsArg);
  if (!isSystemName(systemName)) throw new Error(`unknown system ${systemName}`);
  const send = (message: FromWorkerProcess): void => {
    process.send?.(message);
  };
  const system = await loadSystem(systemName);
  await system.setup();

  const log = logFile ? openSync(logFile, 'a') : null;
  let count = 0;
  let firstAt = Number.NaN;
  let lastAt = Number.NaN;
  let ids: number[] = [];
  const onJob = (payload: BenchPayload): void | Promise<void> => {
    lastAt = epochNow();
    if (count === 0) firstAt = lastAt;
    count += 1;
    // Written when the handler starts, so a job the backend counts as done is in the log, and a
    // job killed mid-handler and run again shows up twice.
    if (log !== null) writeSync(log, `${payload.i}\n`);
    else ids.push(payload.i);
    return jobMs > 0 ? sleep(jobMs) : undefined;
  };
  let reported = 0;
  const report = (): void => {
    if (count === reported) return;
    send({ kind: 'progress', count: count - reported, ids, firstAt, lastAt });
    reported = count;
    ids = [];
  };
  const ticker = setInterval(report, 20);

  let worker: RunningWorker | null = null;
  process.on('message', (message: ToWorkerProcess) => {
    if (message.kind === 'go') {
      const lease = leaseArg === '-' ? {} : { leaseMs: Number(leaseArg) };
      void system.startWorker({ concurrency: Number(concurrencyArg), onJob, ...lease }).then((started) => {
        worker = started;
      });
    } else if (message.kind === 'stop') {
      void (async () => {
        await worker?.stop();
        await system.close();
        clearInterval(ticker);
        report();
        if (log !== null) closeSync(log);
        // Some libraries keep timers alive after stop: exit once the host has the message.
        process.send?.({ kind: 'stopped' } satisfies FromWorkerProcess, () => process.exit(0));
      })();
    }
  });
  send({ kind: 'ready' });
}

main().catch((error: unknown) => {
  process.send?.({
    kind: 'failed',
    error: String((error as Error)?.stack ?? error),
  } satisfies FromWorkerProcess);
  process.exitCode = 1;
  process.disconnect?.();
});
