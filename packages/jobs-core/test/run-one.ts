import { executeJob } from '../src/attempt/execute-job.js';
import type { ExecutionResult } from '../src/attempt/execution-settings.js';
import type { AnyJobHandle } from '../src/job/job-handle.js';
import { recordingLogger } from '../src/telemetry/logger.js';
import type { FakeJobDriver } from './fake-job-driver.js';

/** What {@link runOne} answers: the execution's result and what it logged. */
export interface RunOne {
  readonly result: Promise<ExecutionResult>;
  readonly logger: ReturnType<typeof recordingLogger>;
}

/** Claims the fake's first due row and runs it through `executeJob` with a lease of `windowMs`. */
export function runOne(
  fake: FakeJobDriver,
  handle: AnyJobHandle,
  windowMs = 1_000,
  extra: {
    readonly signal?: AbortSignal;
    readonly heartbeatIntervalMs?: number;
    readonly awaitEveryStart?: boolean;
  } = {},
): RunOne {
  const [claimed] = fake.claimNow(1, windowMs);
  if (claimed === undefined) throw new Error('runOne: no due row');
  const logger = recordingLogger();
  const result = executeJob({
    driver: fake.driver,
    job: claimed,
    registry: { get: (name) => (name === handle.name ? handle : undefined) },
    context: () => ({}),
    visibilityTimeoutMs: windowMs,
    heartbeatIntervalMs: extra.heartbeatIntervalMs ?? Math.max(1, Math.floor(windowMs / 6)),
    logger,
    ...(extra.signal === undefined ? {} : { signal: extra.signal }),
    ...(extra.awaitEveryStart === undefined ? {} : { awaitEveryStart: extra.awaitEveryStart }),
  });
  return { result, logger };
}

/** An error a driver throws when the backend is unreachable (retryable). */
export function unavailable(): Error {
  return Object.assign(new Error('backend down'), { code: 'X_DRIVER_UNAVAILABLE' });
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
