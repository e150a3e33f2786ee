import type { JobDriver } from '../driver/job-driver.js';
import type { JobContext } from '../job/job-context.js';
import type { ExecutionObserver } from '../steps/execution-observer.js';
import type { ExecutionOutcome } from '../telemetry/execution-outcome.js';
import type { JobMetrics } from '../telemetry/job-metrics.js';
import type { JobsLogger } from '../telemetry/logger.js';

/** How long a `waitForEvent` parks between polls when the job declares no `eventPoll`. */
export const DEFAULT_EVENT_POLL_MS = 30_000;

/** How long `onSettled` may run before it is abandoned (and logged). */
export const DEFAULT_SETTLED_TIMEOUT_MS = 30_000;

/** How long a run over its fleet concurrency cap (`whenBusy: 'wait'`) waits before it is offered again. */
export const CONCURRENCY_BUSY_RETRY_MS = 1_000;

/** What {@link executeJob} answers. */
export interface ExecutionResult {
  readonly outcome: ExecutionOutcome;
  /** The error code of a failed, dead or lost attempt. */
  readonly code: string | null;
  /**
   * When a `released` row put back with a delay (a rate-limit or fleet-slot deferral) is due again,
   * in ms on the driver's clock (`driver.now()`); absent for every other outcome. A worker claims
   * again then, rather than at its next idle poll.
   */
  readonly runAt?: number;
}

/** A source of job handles by durable name: a `JobRegistry`, or anything with `get`. */
export interface HandleSource {
  get(name: string): unknown;
}

/** What every execution of one worker shares (everything of `ExecuteJobOptions` but the job). */
export interface ExecutionSettings {
  readonly driver: JobDriver;
  /** Where the row's job name is looked up. */
  readonly registry: HandleSource;
  /** Builds the app's part of `ctx` for this run. */
  readonly context: () => JobContext | Promise<JobContext>;
  /** The lease a heartbeat buys (and the fleet slot's TTL). */
  readonly visibilityTimeoutMs: number;
  /** How often the lease (and slot) is renewed. (Default: a third of the window) */
  readonly heartbeatIntervalMs?: number;
  readonly logger: JobsLogger;
  readonly metrics?: JobMetrics;
  readonly observer?: ExecutionObserver;
  /** (Default: {@link DEFAULT_SETTLED_TIMEOUT_MS}) */
  readonly settledTimeoutMs?: number;
  /** Await every start before its body, the first attempt's too (`WorkerOptions.awaitEveryStart`). (Default: false) */
  readonly awaitEveryStart?: boolean;
}
