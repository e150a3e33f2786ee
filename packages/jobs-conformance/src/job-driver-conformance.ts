import { randomUUID } from 'node:crypto';
import type { JobDriver } from '@x/jobs-core';
import { describe, it } from 'vitest';
import { PEER_GROUP } from './cases/peer-cases.js';
import { type ConformanceSubject, createDriverHarness } from './driver-harness.js';
import { conformanceError } from './errors.js';
import type { DriverSetup, JobDriverCase } from './job-driver-case.js';
import { JOB_DRIVER_CASES, PEER_CASES, WAKE_CASES } from './job-driver-cases.js';

/**
 * How the suite gets and disposes of the driver under test. `Subject` is what `create` answers,
 * so `destroy` receives the driver's own type.
 */
export interface JobDriverConformanceOptions<
  Subject extends JobDriver | ConformanceSubject = JobDriver | ConformanceSubject,
> {
  /** Names the suite: `describe('<name> driver conformance')`. */
  readonly name: string;
  /**
   * Called once per case; answers a fresh driver (or a {@link ConformanceSubject} with its clock)
   * made with `queues: setup.queues` (empty except for the cases of queue settings, such as the
   * fairness group). Cases use unique queue names, so the drivers may share one database if it is
   * not shared with other test files running at the same time.
   */
  readonly create: (setup: DriverSetup) => Subject | Promise<Subject>;
  /** Called after each case with what `create` answered, pass or fail. (Default: `driver.close()`) */
  readonly destroy?: (subject: Subject) => unknown;
  /**
   * The base duration of timing cases in ms: short visibility timeouts and TTLs are one tick and
   * the suite waits two. Raise it for a slow backend; with a `clock` no real time passes. (Default: 200)
   */
  readonly tickMs?: number;
  /**
   * Whether the driver offers `wake`, the one optional member the suite lets a driver leave out:
   * false drops the wake cases. (Default: true)
   */
  readonly wake?: boolean;
  /**
   * Answers a second instance of the driver `create` answered, over the same backend and key
   * space: what another process sees. With it the suite also runs the `peer` cases (what one
   * instance writes the other claims and settles, and its settles reach the first one's
   * `awaitResult` through the settle wake); the suite closes the peer after each of them. Leave it
   * out for a driver whose storage one process owns (memory, PGlite). (Default: no peer cases)
   */
  readonly openPeer?: (subject: Subject) => JobDriver | Promise<JobDriver>;
  /** Per-case timeout in ms. (Default: 20000) */
  readonly timeoutMs?: number;
}

const DEFAULT_TICK_MS = 200;

function checkOptions(
  options: Pick<JobDriverConformanceOptions<never>, 'name' | 'tickMs'> & { create: unknown },
): void {
  if (typeof options.name !== 'string' || options.name.trim() === '') {
    throw conformanceError(
      'X_CONFORMANCE_OPTIONS_INVALID',
      'jobDriverConformance: name must be a non-empty string.',
    );
  }
  if (typeof options.create !== 'function') {
    throw conformanceError(
      'X_CONFORMANCE_OPTIONS_INVALID',
      'jobDriverConformance: create must be a function.',
    );
  }
  const tick = options.tickMs ?? DEFAULT_TICK_MS;
  if (!Number.isFinite(tick) || tick <= 0) {
    throw conformanceError(
      'X_CONFORMANCE_OPTIONS_INVALID',
      'jobDriverConformance: tickMs must be a positive number.',
      {
        tickMs: tick,
      },
    );
  }
}

/**
 * Runs one case against a driver from `options.create()` and disposes of it, whatever the outcome.
 * Rejects with the case's assertion error when the driver does not behave.
 */
export async function runJobDriverCase<Subject extends JobDriver | ConformanceSubject>(
  testCase: JobDriverCase,
  options: Pick<JobDriverConformanceOptions<Subject>, 'create' | 'destroy' | 'tickMs' | 'openPeer'>,
): Promise<void> {
  const queue = `q-${randomUUID()}`;
  const subject: Subject = await options.create(testCase.setup?.(queue) ?? { queues: {} });
  const created: JobDriver | ConformanceSubject = subject;
  let peer: JobDriver | undefined;
  try {
    if (testCase.group === PEER_GROUP && options.openPeer !== undefined)
      peer = await options.openPeer(subject);
    await testCase.run(createDriverHarness(created, options.tickMs ?? DEFAULT_TICK_MS, queue, peer));
  } finally {
    try {
      await peer?.close();
    } finally {
      if (options.destroy !== undefined) await options.destroy(subject);
      else await ('driver' in created ? created.driver : created).close();
    }
  }
}

/**
 * Registers the whole `JobDriver` contract as vitest suites: one `describe` per group, one `it` per
 * case. A driver passes when every test passes.
 */
export function jobDriverConformance<Subject extends JobDriver | ConformanceSubject>(
  options: JobDriverConformanceOptions<Subject>,
): void {
  checkOptions(options);
  const groups = new Map<string, JobDriverCase[]>();
  const cases = [
    ...JOB_DRIVER_CASES,
    ...(options.wake === false ? [] : WAKE_CASES),
    ...(options.openPeer === undefined ? [] : PEER_CASES),
  ];
  for (const testCase of cases) {
    groups.set(testCase.group, [...(groups.get(testCase.group) ?? []), testCase]);
  }
  describe(`${options.name} driver conformance`, () => {
    for (const [group, cases] of groups) {
      describe(group, () => {
        for (const testCase of cases) {
          it(testCase.name, () => runJobDriverCase(testCase, options), options.timeoutMs ?? 20_000);
        }
      });
    }
  });
}
