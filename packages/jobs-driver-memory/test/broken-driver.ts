import { JOB_DRIVER_CASES, type JobDriverCase, runJobDriverCase, WAKE_CASES } from '@x/jobs-conformance';
import type { JobDriver } from '@x/jobs-core';
import { expect } from 'vitest';
import { memoryJobDriver, virtualClock } from '../src/index.js';

/** A wrapper that breaks one guarantee of the driver it wraps. */
export type Breakage = (inner: JobDriver) => JobDriver;

/** One broken driver and the cases (by `group: name` prefix) that must catch it. */
export interface BrokenDriver {
  readonly name: string;
  readonly breakage: Breakage;
  readonly caughtBy: readonly string[];
}

/** The one case whose `group: name` starts with `prefix`. */
function caseStartingWith(prefix: string): JobDriverCase {
  const found = [...JOB_DRIVER_CASES, ...WAKE_CASES].filter((testCase) =>
    `${testCase.group}: ${testCase.name}`.startsWith(prefix),
  );
  expect(found, `exactly one case starts with "${prefix}"`).toHaveLength(1);
  return found[0]!;
}

function memorySubject(breakage: Breakage = (driver) => driver) {
  return () => {
    const clock = virtualClock();
    return { driver: breakage(memoryJobDriver({ clock })), clock };
  };
}

/**
 * The case starting with `prefix` passes on the healthy memory driver and fails — by an
 * assertion, not a crash — on the one `breakage` wraps.
 */
export async function expectCaught(breakage: Breakage, prefix: string): Promise<void> {
  const testCase = caseStartingWith(prefix);
  expect(
    await runJobDriverCase(testCase, { create: memorySubject() }),
    'passes on the healthy driver',
  ).toEqual({
    status: 'passed',
  });
  const failure = await runJobDriverCase(testCase, { create: memorySubject(breakage) }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure, 'the broken driver must fail the case').toBeInstanceOf(Error);
  expect((failure as Error).name, 'failed by an assertion, not a crash').toBe('AssertionError');
}
