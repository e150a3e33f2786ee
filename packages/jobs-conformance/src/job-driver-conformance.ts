import { randomUUID } from 'node:crypto';
import type { JobDriver } from '@x/jobs-core';
import { afterAll, describe, it, type TestContext } from 'vitest';
import {
  certificationSummary,
  ignoredSetupReason,
  type JobDriverCaseResult,
  NO_PEER_REASON,
  NO_WAKE_REASON,
  trackedSetup,
} from './case-certification.js';
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
   * fairness group). A `create` that never reads `setup.queues` (`() => myDriver()`) still
   * certifies everything else: the cases needing queue settings are skipped and reported as not
   * certified for their group. Cases use unique queue names, so the drivers may share one database
   * if it is not shared with other test files running at the same time.
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
   * false skips the wake cases, each reported as not certified for `wake`. (Default: true)
   */
  readonly wake?: boolean;
  /**
   * Answers a second instance of the driver `create` answered, over the same backend and key
   * space: what another process sees. With it the suite also runs the `peer` cases (what one
   * instance writes the other claims and settles, and its settles reach the first one's
   * `awaitResult` through the settle wake); the suite closes the peer after each of them. Leave it
   * out for a driver whose storage one process owns (memory, PGlite): the peer cases are then
   * skipped, each reported as not certified for `peer`. (Default: none)
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
 * Runs one case against a driver from `options.create(setup)` and disposes of it, whatever the
 * outcome. Rejects with the case's assertion error when the driver does not behave. Answers
 * `not-certified` (with the reason) instead of running the case when the options cannot arrange
 * what it needs: a case needing queue settings whose `create` never read `setup.queues`, or a
 * `peer` case without `openPeer`.
 */
export async function runJobDriverCase<Subject extends JobDriver | ConformanceSubject>(
  testCase: JobDriverCase,
  options: Pick<JobDriverConformanceOptions<Subject>, 'create' | 'destroy' | 'tickMs' | 'openPeer'>,
): Promise<JobDriverCaseResult> {
  if (testCase.group === PEER_GROUP && options.openPeer === undefined) {
    return { status: 'not-certified', feature: testCase.group, reason: NO_PEER_REASON };
  }
  const queue = `q-${randomUUID()}`;
  const setup = testCase.setup?.(queue) ?? { queues: {} };
  const tracked = trackedSetup(setup);
  const subject: Subject = await options.create(tracked.setup);
  const created: JobDriver | ConformanceSubject = subject;
  const needsSetup = Object.keys(setup.queues).length > 0;
  let peer: JobDriver | undefined;
  try {
    if (needsSetup && !tracked.readQueues()) {
      return { status: 'not-certified', feature: testCase.group, reason: ignoredSetupReason(setup) };
    }
    if (testCase.group === PEER_GROUP && options.openPeer !== undefined)
      peer = await options.openPeer(subject);
    await testCase.run(createDriverHarness(created, options.tickMs ?? DEFAULT_TICK_MS, queue, peer));
    return { status: 'passed' };
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
 * case. A driver passes when every test passes. A case the options cannot arrange (see
 * {@link runJobDriverCase}; the wake cases under `wake: false`) is skipped with its reason
 * (`ctx.skip(reason)`), never silently: after the suite one line per feature says
 * `<name> driver conformance: not certified for <feature> (<n> cases skipped): <reason>`.
 */
export function jobDriverConformance<Subject extends JobDriver | ConformanceSubject>(
  options: JobDriverConformanceOptions<Subject>,
): void {
  checkOptions(options);
  const groups = new Map<string, JobDriverCase[]>();
  const wakeCases = new Set<JobDriverCase>(WAKE_CASES);
  for (const testCase of [...JOB_DRIVER_CASES, ...WAKE_CASES, ...PEER_CASES]) {
    groups.set(testCase.group, [...(groups.get(testCase.group) ?? []), testCase]);
  }
  const suite = `${options.name} driver conformance`;
  const skipped = new Map<string, { cases: number; reason: string }>();
  const skip = (context: TestContext, feature: string, reason: string): never => {
    const seen = skipped.get(feature);
    skipped.set(feature, { cases: (seen?.cases ?? 0) + 1, reason: seen?.reason ?? reason });
    return context.skip(`not certified for ${feature}: ${reason}`);
  };
  describe(suite, () => {
    afterAll(() => {
      for (const line of certificationSummary(suite, skipped)) console.warn(line);
    });
    for (const [group, cases] of groups) {
      describe(group, () => {
        for (const testCase of cases) {
          it(
            testCase.name,
            async (context) => {
              if (options.wake === false && wakeCases.has(testCase)) skip(context, 'wake', NO_WAKE_REASON);
              const result = await runJobDriverCase(testCase, options);
              if (result.status === 'not-certified') skip(context, result.feature, result.reason);
            },
            options.timeoutMs ?? 20_000,
          );
        }
      });
    }
  });
}
