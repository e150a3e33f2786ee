import { type ChildProcess, fork } from 'node:child_process';
import type { JobDriver } from '@x/jobs-core';

/**
 * A claimer process's side: says `'ready'`, then on each `{ queue }` message claims one row of
 * `queue`, starts and acks it (a worker with concurrency 1, prefetch 0) and answers `{ tenant }`
 * (`null` when the claim found nothing); `'close'` closes the driver and exits.
 */
export function serveFairFleetMessages(driver: JobDriver): void {
  process.on('message', async (message: 'close' | { queue: string }) => {
    if (message === 'close') {
      await driver.close();
      process.exit(0);
    }
    const { queue } = message;
    const [job] = await driver.claim({
      queues: [queue],
      limit: 1,
      workerId: `p${process.pid}`,
      visibilityTimeoutMs: 60_000,
    });
    if (job !== undefined) {
      await driver.start(job.id, job.claim, 60_000);
      await driver.ack(job.id, job.claim, null);
    }
    process.send?.({ tenant: job === undefined ? null : job.tenantId });
  });
  process.send?.('ready');
}

/** Four (or `size`) claimer processes of the fair fleet tests, driven one message at a time. */
export interface FairFleet {
  /** Has process `n` claim one row of `queue`, start and ack it; answers its tenant (`-` for none). */
  serve(n: number, queue: string): Promise<string>;
  readonly size: number;
  close(): Promise<void>;
}

/** Forks `size` copies of the claimer `entry` (run with `args`) and waits until each is ready. */
export async function forkFairFleet(entry: string, args: readonly string[], size = 4): Promise<FairFleet> {
  const children: ChildProcess[] = Array.from({ length: size }, () =>
    fork(entry, [...args], { execArgv: ['--conditions=@x/source', '--import', 'tsx'], stdio: 'inherit' }),
  );
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          child.once('message', () => resolve());
          child.once('exit', (code) => reject(new Error(`fair claimer exited with ${code} before ready`)));
        }),
    ),
  );
  return {
    size,
    serve(n, queue) {
      const child = children[n % size] as ChildProcess;
      return new Promise((resolve) => {
        child.once('message', (reply) => resolve((reply as { tenant: string | null }).tenant ?? '-'));
        child.send({ queue });
      });
    },
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.send('close');
            }),
        ),
      );
    },
  };
}

/**
 * The fleet cases, the same on every backend, on the fleet's two fair queues `queues`:
 * `enqueue(queue, tenant, count)` adds rows in order. Answers what the test asserts: the tenants served when the processes take
 * turns (five of A's backlog, then B's three rows arrive, eight more claims) and the tenants of
 * three rounds of four racing claims (one per process) over 40 of A then 4 of B, sorted per round.
 */
export async function fairFleetOrders(
  fleet: FairFleet,
  queues: readonly [string, string],
  enqueue: (queue: string, tenant: string, count: number) => Promise<void>,
): Promise<{ turns: string; rounds: string[] }> {
  const [taking, racing] = queues;
  await enqueue(taking, 'a', 40);
  let turns = '';
  for (let i = 0; i < 5; i += 1) turns += await fleet.serve(i, taking);
  await enqueue(taking, 'b', 3);
  for (let i = 5; i < 13; i += 1) turns += await fleet.serve(i, taking);
  await enqueue(racing, 'a', 40);
  await enqueue(racing, 'b', 4);
  const rounds: string[] = [];
  for (let round = 0; round < 3; round += 1) {
    const served = await Promise.all(Array.from({ length: fleet.size }, (_, n) => fleet.serve(n, racing)));
    rounds.push(served.sort().join(''));
  }
  return { turns, rounds };
}
