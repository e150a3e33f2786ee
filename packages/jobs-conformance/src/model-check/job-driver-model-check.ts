import { randomUUID } from 'node:crypto';
import type { JobDriver } from '@x/jobs-core';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { ConformanceSubject } from '../driver-harness.js';
import { conformanceError } from '../errors.js';
import { type ModelOperation, modelSequence } from './model-operation.js';
import { LAPSE_WAIT_MS, ModelSide, type SequenceNames } from './model-side.js';
import { snapshot } from './model-snapshot.js';
import { ModelTimeline } from './model-timeline.js';

/** Options of {@link jobDriverModelCheck} and {@link runJobDriverModelCheck}. */
export interface JobDriverModelCheckOptions {
  /** Names the vitest test: `<name> driver matches the model`. */
  readonly name: string;
  /** The driver under test, fresh per sequence (or a {@link ConformanceSubject} with its clock). */
  readonly create: () => JobDriver | ConformanceSubject | Promise<JobDriver | ConformanceSubject>;
  /** Disposes of what `create` answered. (Default: `driver.close()`) */
  readonly destroy?: (subject: JobDriver | ConformanceSubject) => unknown;
  /**
   * The reference implementation, fresh per sequence: pass `@x/jobs-driver-memory` with its
   * virtual clock, `() => { const clock = virtualClock(); return { driver: memoryJobDriver({ clock }), clock }; }`.
   */
  readonly model: () => JobDriver | ConformanceSubject | Promise<JobDriver | ConformanceSubject>;
  /** How many sequences to generate. (Default: 30) */
  readonly numRuns?: number;
  /** The generator's seed, so a CI run is repeatable; a failure prints the seed and path to replay it. (Default: 20261201) */
  readonly seed?: number;
  /** The longest generated sequence. (Default: 24) */
  readonly maxOperations?: number;
  /** The vitest timeout of the whole check, in ms. (Default: 240000) */
  readonly timeoutMs?: number;
}

const DEFAULT_SEED = 20_261_201;

function subjectOf(value: JobDriver | ConformanceSubject): ConformanceSubject {
  return 'driver' in value ? value : { driver: value };
}

function lapses(operation: ModelOperation): boolean {
  return operation.op === 'advance' || ('window' in operation && operation.window === 'lapse');
}

function sequenceNames(): SequenceNames {
  const run = randomUUID().slice(0, 8);
  return {
    queues: [`mq-${run}-a`, `mq-${run}-b`],
    events: [`me-${run}-a`, `me-${run}-b`],
    leaseKeys: [`ml-${run}-a`, `ml-${run}-b`],
    rowId: (n) => `mr-${run}-${n}`,
    key: (k) => `mk-${run}-${k}`,
  };
}

/**
 * Runs one generated sequence on a fresh driver under test and a fresh model, comparing every
 * answer as it comes and, at the end, everything each side holds. Throws an assertion error naming
 * the first step where they disagree.
 */
async function runSequence(
  options: JobDriverModelCheckOptions,
  operations: readonly ModelOperation[],
): Promise<void> {
  const created = await options.create();
  const tested = subjectOf(created);
  const model = subjectOf(await options.model());
  const names = sequenceNames();
  const sides = [new ModelSide(tested.driver, names), new ModelSide(model.driver, names)] as const;
  const timeline = new ModelTimeline([tested, model]);
  try {
    for (const [step, operation] of operations.entries()) {
      await timeline.beforeCall();
      const [actual, expected] = [await sides[0].apply(operation), await sides[1].apply(operation)];
      expect(
        actual,
        `step ${step} ${JSON.stringify(operation)}: the driver answers what the model answers`,
      ).toEqual(expected);
      if (lapses(operation)) await timeline.pass(LAPSE_WAIT_MS);
    }
    await timeline.beforeCall();
    expect(
      await snapshot(sides[0], names),
      'after the sequence, the driver holds what the model holds',
    ).toEqual(await snapshot(sides[1], names));
  } finally {
    await (options.destroy ?? ((s: JobDriver | ConformanceSubject) => subjectOf(s).driver.close()))(created);
    await model.driver.close();
  }
}

function checkOptions(options: JobDriverModelCheckOptions): void {
  if (typeof options.create !== 'function' || typeof options.model !== 'function') {
    throw conformanceError(
      'X_CONFORMANCE_OPTIONS_INVALID',
      'jobDriverModelCheck: create and model must be functions.',
    );
  }
  for (const field of ['numRuns', 'maxOperations'] as const) {
    const value = options[field];
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw conformanceError(
        'X_CONFORMANCE_OPTIONS_INVALID',
        `jobDriverModelCheck: ${field} must be a positive integer.`,
        {
          [field]: value,
        },
      );
    }
  }
}

/**
 * The differential model check, outside vitest's registration: fast-check generates sequences of
 * driver calls (enqueue, enqueueMany, claim (starting some rows or none), start, heartbeat, ack, each nack kind, progress,
 * step saves, cancel, promote, an operator's retry, pause/resume, event publish and find, lease
 * acquire/renew/release, time passing), runs each on the driver under test and on the model, and
 * rejects with the shrunk, minimal sequence on which they first disagree.
 */
export async function runJobDriverModelCheck(options: JobDriverModelCheckOptions): Promise<void> {
  checkOptions(options);
  await fc.assert(
    fc.asyncProperty(modelSequence(options.maxOperations ?? 24), (operations) =>
      runSequence(options, operations),
    ),
    { numRuns: options.numRuns ?? 30, seed: options.seed ?? DEFAULT_SEED },
  );
}

/**
 * Registers {@link runJobDriverModelCheck} as one vitest test, the second half of certifying a
 * driver (after `jobDriverConformance`): every answer and the final state of generated sequences
 * must match the memory driver's.
 */
export function jobDriverModelCheck(options: JobDriverModelCheckOptions): void {
  checkOptions(options);
  it(
    `${options.name} driver matches the model on generated sequences`,
    () => runJobDriverModelCheck(options),
    options.timeoutMs ?? 240_000,
  );
}
