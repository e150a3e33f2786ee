import { randomUUID } from 'node:crypto';
import { z } from 'zod';
// The public entry only, so the scenario does not depend on where core keeps its files.
import { type CompleteJobDriver, createWorker, job, setJobDriver } from '../../src/index.js';
import {
  type BodyCall,
  type ChildMessage,
  type ClockJumpReport,
  DUE_IN_MS,
  type ParentMessage,
} from './clock-jump-report.js';
import { CLOCK_SHIFT } from './clock-shift.js';

/** How long the child waits for its job to finish: far less than a 10-minute stall. */
const GIVE_UP_MS = 20_000;

/** What a driver's child script hands {@link runClockJumpChild}. */
export interface ClockJumpChild {
  /** The driver under test, opened in this (clock-shifted) process. */
  readonly driver: CompleteJobDriver;
  /** One read of the backend's own clock (epoch ms), independent of this host's clock. */
  readonly readBackendClock: () => Promise<number>;
  /** Closes what the script opened besides the driver. */
  readonly close?: () => Promise<void>;
}

/**
 * The child side of the clock-jump test (run under the `clock-shift` preload, with an IPC
 * channel): opens the driver and measures its clock, says `ready`, waits for the parent's shift
 * and applies it, then — under the shifted clock — enqueues a job with a 500 ms delay whose body
 * fails once (a 500 ms fixed backoff, no jitter), then `step.sleep`s 500 ms, then returns, and
 * reports the backend time and the row's `runAt` at each body call.
 */
export async function runClockJumpChild(child: ClockJumpChild): Promise<void> {
  const { driver, readBackendClock } = child;
  const send = (message: ChildMessage) => process.send?.(message);
  try {
    await driver.stats(); // opens the driver: its clock is measured now, before the jump
    const shift = await new Promise<number>((resolve) => {
      process.once('message', (message: ParentMessage) => resolve(message.ms));
      send({ type: 'ready' });
    });
    (globalThis as unknown as Record<symbol, (ms: number) => void>)[CLOCK_SHIFT]?.(shift);
    const shiftedWallNow = Date.now();
    const report = await runScenario(driver, readBackendClock, shiftedWallNow);
    send({ type: 'report', report });
  } catch (error) {
    send({
      type: 'failed',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  } finally {
    await driver.close();
    await child.close?.();
    process.disconnect?.();
  }
}

async function runScenario(
  driver: CompleteJobDriver,
  readBackendClock: () => Promise<number>,
  shiftedWallNow: number,
): Promise<ClockJumpReport> {
  const label = randomUUID().slice(0, 8);
  const calls: BodyCall[] = [];
  const work = job({
    name: `clock-jump-${label}`,
    queue: `clock-jump-${label}`,
    input: z.object({}),
    idempotencyKey: () => label,
    tenant: 'none',
    retry: { attempts: 3, backoff: 'fixed', delay: DUE_IN_MS, jitter: false },
    async run({ step, ctx }) {
      const startedAt = await readBackendClock();
      const row = await driver.introspect.get(ctx.jobId);
      calls.push({ startedAt, runAt: row?.runAt ?? Number.NaN });
      if (calls.length === 1) throw new Error('first call fails: retried after the backoff');
      await step.sleep('nap', DUE_IN_MS);
    },
  });
  setJobDriver(driver);
  const worker = createWorker({
    driver,
    context: () => ({}),
    registry: { get: (name) => (name === work.name ? work : undefined) },
    queues: [work.describe().queue],
    handleSignals: false,
    idlePollMaxMs: 100,
    doneRetentionMs: 0,
    logger: { log: () => undefined },
  });
  await worker.start();
  const before = await readBackendClock();
  const { id } = await work.enqueue({}, { delay: DUE_IN_MS });
  const enqueued = await driver.introspect.get(id);
  const delayed = { before, runAt: enqueued?.runAt ?? Number.NaN };
  const deadline = performance.now() + GIVE_UP_MS;
  let done = false;
  while (!done && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    done = (await driver.introspect.get(id))?.state === 'done';
  }
  await worker.stop();
  return { shiftedWallNow, delayed, calls, done };
}
