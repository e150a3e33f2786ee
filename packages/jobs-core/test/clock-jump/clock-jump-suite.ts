import { type ChildProcess, spawn } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { ChildMessage, ClockJumpReport, ParentMessage } from './clock-jump-report.js';
import { DUE_IN_MS } from './clock-jump-report.js';

/** The jump: what an NTP correction or a VM resume did to a worker host in the field. */
export const TEN_MINUTES_MS = 600_000;

/** How far a due time may land from the intended one: the bound. */
const WITHIN_MS = 1_000;

/**
 * Slack below the intended due time: the driver's `now()` is the backend's clock estimated from
 * round trips, so it may read a little early (never seconds).
 */
const ESTIMATE_SLACK_MS = 100;

/** What a driver's clock-jump test runs. */
export interface ClockJumpTarget {
  /** The driver's child script (it calls `runClockJumpChild`), and its arguments. */
  readonly script: string;
  readonly args?: readonly string[];
}

/** Runs the child with the clock-shift preload, shifts its clock by `shiftMs` once it is ready, and answers its report. */
export function runClockJump(target: ClockJumpTarget, shiftMs: number): Promise<ClockJumpReport> {
  const preload = fileURLToPath(
    new URL(`./clock-shift${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=@x/source', '--import', 'tsx', '--import', preload, target.script, ...(target.args ?? [])],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  return new Promise<ClockJumpReport>((resolve, reject) => {
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') child.send({ type: 'shift', ms: shiftMs } satisfies ParentMessage);
      else if (message.type === 'report') resolve(message.report);
      else reject(new Error(`clock-jump child failed: ${message.message}`));
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`clock-jump child exited (${code}) without a report`)));
  });
}

/**
 * Registers the clock-jump cases for one driver: for a jump of +10 min and of −10 min after the
 * driver opened, a 500 ms enqueue delay, a 500 ms retry backoff and a 500 ms `step.sleep` each
 * come due within 1 s of the intended time on the backend's clock — never ~10 min late, never at
 * once — and the job runs to `done`. The child's clock is proven shifted first.
 */
export function clockJumpCases(target: () => ClockJumpTarget): void {
  it.each([
    ['forward', TEN_MINUTES_MS],
    ['backward', -TEN_MINUTES_MS],
  ])('a %s wall-clock jump of the worker host moves no due time', async (_, shiftMs) => {
    const report = await runClockJump(target(), shiftMs);
    // The child's clock really moved (within the time the message took to come back).
    expect(Math.abs(report.shiftedWallNow - Date.now() - shiftMs)).toBeLessThan(5_000);
    const { delayed, calls } = report;
    const dueAfter = (due: number, from: number | undefined) => due - (from ?? Number.NaN);
    const lateness = {
      delay: dueAfter(delayed.runAt, delayed.before),
      backoff: dueAfter(calls[1]?.runAt ?? Number.NaN, calls[0]?.startedAt),
      sleep: dueAfter(calls[2]?.runAt ?? Number.NaN, calls[1]?.startedAt),
    };
    for (const [what, dueIn] of Object.entries(lateness)) {
      const says = `${what} due in ${dueIn} ms (report: ${JSON.stringify(report)})`;
      expect(dueIn, says).toBeGreaterThanOrEqual(DUE_IN_MS - ESTIMATE_SLACK_MS);
      expect(dueIn, says).toBeLessThanOrEqual(DUE_IN_MS + WITHIN_MS);
    }
    expect(report.done).toBe(true);
    expect(calls).toHaveLength(3);
  });
}
