import { type Link, type Span, SpanKind } from '@opentelemetry/api';
import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import { DEFAULT_RETRY_POLICY } from '../retry/retry-policy.js';
import { leaseLostError } from '../steps/failure.js';
import { previousAttemptLinks, traceparentOfSpan } from '../telemetry/attempt-link.js';
import { contextFromTraceparent, inSpan, sdkTracer } from '../telemetry/job-tracing.js';
import { consumerAttributes } from '../telemetry/messaging-attributes.js';
import { admit } from './admit.js';
import { applySettlement } from './apply-settlement.js';
import { AttemptScope } from './attempt-scope.js';
import { abandonStartLanding, countUnstarted, startAttempt } from './attempt-start.js';
import { decideSettlement } from './decide-settlement.js';
import type { ExecutionResult, ExecutionSettings } from './execution-settings.js';
import { releaseFleetSlot, takeFleetSlot } from './fleet-slot.js';
import { LeaseKeeper } from './lease-keeper.js';
import { takeRateLimit } from './rate-limit-take.js';
import { runBody } from './run-body.js';
import type { AttemptOutcome, Settlement } from './settlement.js';
import { unwind } from './unwind.js';

export type {
  ExecutionResult,
  ExecutionSettings,
  HandleSource,
} from './execution-settings.js';
export {
  CONCURRENCY_BUSY_RETRY_MS,
  DEFAULT_EVENT_POLL_MS,
  DEFAULT_SETTLED_TIMEOUT_MS,
} from './execution-settings.js';

/** Everything one execution needs. */
export interface ExecuteJobOptions extends ExecutionSettings {
  /** The claimed row. */
  readonly job: ClaimedJob;
  /** The worker's signal for this job: aborting it with `X_DRAINING` hands the row back uncounted. */
  readonly signal?: AbortSignal;
  /** Aborted when the worker gives up on a body that ignored its signal: the lease lapses. */
  readonly abandon?: AbortSignal;
  /** Called once when only the settle remains, so a worker can start its next job meanwhile. */
  readonly onWorkDone?: () => void;
}

/**
 * Runs one claimed job: the only execution path. One attempt passes through these phases, each in
 * its own module, and is settled exactly once, by `applySettlement`:
 *
 * 1. **admit** — definition, input, tenant; 2. **fleet slot** — `job.concurrency`, then the
 * **rate limit** — `job.rateLimit` (a run over it is deferred uncounted);
 * 3. **start** — the attempt budget, then `driver.start` (an attempt counts when its body starts);
 * 4. **run body** — `ctx`, timeout, the stop race; 5. **decide** — stop cause × outcome × policy →
 * one settlement, purely; 6. **unwind** — compensators of a run failed for good;
 * 7. **apply** — the one ack/nack, retried while the lease holds.
 *
 * The **lease keeper** runs beside them from the claim until the settle lands; a lost lease, a
 * lost slot, a timeout or a drain is recorded once as the attempt's stop cause.
 */
export function executeJob(options: ExecuteJobOptions): Promise<ExecutionResult> {
  const execution = new Execution(options, options.job, options.onWorkDone);
  const { signal, abandon } = options;
  if (signal === undefined && abandon === undefined) return runTraced(execution);
  const interrupt = () => execution.interrupt(signal?.reason);
  const stopRenewing = () => execution.abandon();
  if (signal?.aborted) interrupt();
  else signal?.addEventListener('abort', interrupt, { once: true });
  if (abandon?.aborted) stopRenewing();
  else abandon?.addEventListener('abort', stopRenewing, { once: true });
  return runTraced(execution).finally(() => {
    signal?.removeEventListener('abort', interrupt);
    abandon?.removeEventListener('abort', stopRenewing);
  });
}

/**
 * Runs an execution inside its job's span (when there is a trace to record or carry): a child of
 * the enqueue's span, and — from the second attempt on, when the previous one was traced and
 * recorded its error — linked to the previous attempt's span.
 */
export function runTraced(execution: Execution): Promise<ExecutionResult> {
  const job = execution.job;
  // Nothing to record or carry: no span, no context, no closures (inSpan would decide the same).
  if (isUntraced(job)) return execution.run();
  if (job.attempt > 1 && sdkTracer() !== undefined) {
    return previousAttemptLinks(execution.driver, job.id).then((links) => runInJobSpan(execution, links));
  }
  return runInJobSpan(execution, undefined);
}

/**
 * {@link runTraced} by callback: `landed` gets the result, `crashed` the error, exactly one of them
 * once. With nothing to trace (the worker's hot path) the execution makes no promise of its own.
 */
export function runTracedThen(
  execution: Execution,
  landed: (result: ExecutionResult) => void,
  crashed: (error: unknown) => void,
): void {
  if (isUntraced(execution.job)) execution.runThen(landed, crashed);
  else runTraced(execution).then(landed, crashed);
}

/** True when a job has no trace to carry and no SDK records one: its execution needs no span. */
function isUntraced(job: ClaimedJob): boolean {
  return job.traceparent === null && sdkTracer() === undefined;
}

function runInJobSpan(execution: Execution, links: Link[] | undefined): Promise<ExecutionResult> {
  const job = execution.job;
  return inSpan(
    `job ${job.name}`,
    contextFromTraceparent(job.traceparent),
    () => consumerAttributes(job),
    (span) => {
      if (span === undefined) return execution.run();
      execution.traceWith(traceparentOfSpan(span), span);
      return execution.run().then((result) => {
        span.setAttribute('x_jobs.outcome', result.outcome);
        if (result.code !== null) span.setAttribute('x_jobs.error_code', result.code);
        return result;
      });
    },
    SpanKind.CONSUMER,
    links,
  );
}

/**
 * One execution of one claimed row. Internal: the worker creates these directly (one settings
 * object for all its jobs; it interrupts them itself on a drain). `leaseFrom` is when the claim
 * was sent (`performance.now()`): the lease window is measured from it.
 */
export class Execution {
  readonly #scope: AttemptScope;
  #onWorkDone: (() => void) | undefined;
  readonly #leaseFrom: number;
  #keeper: LeaseKeeper | undefined;
  #abandoned = false;
  #resolve: ((result: ExecutionResult) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;

  constructor(settings: ExecutionSettings, job: ClaimedJob, onWorkDone?: () => void, leaseFrom?: number) {
    this.#scope = new AttemptScope(settings, job);
    this.#onWorkDone = onWorkDone;
    this.#leaseFrom = leaseFrom ?? performance.now();
  }

  /** The claimed row this execution runs. */
  get job(): ClaimedJob {
    return this.#scope.job;
  }

  /** The driver the execution settles through. */
  get driver(): JobDriver {
    return this.#scope.driver;
  }

  /**
   * Records this attempt's job span, so the error a retry or dead-letter stores names it, and a
   * failed attempt records its exception on it.
   */
  traceWith(traceparent: string, span?: Span): void {
    this.#scope.traceparent = traceparent;
    this.#scope.span = span;
  }

  /**
   * The body a stop left running (its attempt already settled or lost), until it ends; undefined
   * when the body ended with its attempt. The worker keeps holding the job until then.
   */
  get lingering(): Promise<void> | undefined {
    return this.#scope.lingering;
  }

  /** Interrupts the run (a drain: `X_DRAINING` hands it back uncounted once the body stops). */
  interrupt(reason: unknown): void {
    this.#scope.stop.stop({ kind: 'drain', error: reason });
  }

  /** Stops renewing the lease and slot (the drain deadline gave up on a body that kept running). */
  abandon(): void {
    this.#abandoned = true;
    this.#keeper?.stop();
  }

  /**
   * The row was claimed again (this attempt's lease lapsed): this attempt is stopped as if a
   * renewal had been refused — `ctx.signal` aborts with `X_JOB_LEASE_LOST`, nothing is settled.
   */
  supersede(): void {
    this.#scope.stop.stop({ kind: 'lease-lost', error: leaseLostError(this.#scope.job.id), refused: true });
    this.#keeper?.stop();
  }

  /**
   * Runs the claimed row to its settle, once: {@link runThen} as a promise. It answers the result
   * once the settle landed and the keeper stopped (and a fleet slot was released); it rejects only
   * when a phase after the body threw unexpectedly (or the release did).
   */
  run(): Promise<ExecutionResult> {
    return new Promise<ExecutionResult>((resolve, reject) => this.runThen(resolve, reject));
  }

  /**
   * Runs the claimed row to its settle, once; `landed` gets the result, or `crashed` the error of
   * a phase after the body that threw unexpectedly — exactly one of them, once (synchronously,
   * before this call returns, only when such a phase throws before any I/O). The phases hand
   * their outcomes on by callback, each continuing synchronously when it has no I/O to wait for:
   * on the hot path an execution makes no promise of its own, only one `then` per driver call and
   * for the body — with the ambient run context on, every promise and `await` costs a promise hook.
   */
  runThen(landed: (result: ExecutionResult) => void, crashed: (error: unknown) => void): void {
    this.#resolve = landed;
    this.#reject = crashed;
    const keeper = new LeaseKeeper(this.#scope, this.#leaseFrom);
    this.#keeper = keeper;
    if (this.#abandoned) keeper.stop();
    this.#admit();
  }

  /** Phases 1–2: admit, then the fleet slot (only for a job with `concurrency`). */
  #admit(): void {
    const scope = this.#scope;
    let outcome: AttemptOutcome | undefined;
    try {
      outcome = admit(scope);
      if (outcome === undefined && scope.definition?.concurrency !== undefined) {
        takeFleetSlot(scope).then(
          (slotOutcome) => this.#start(slotOutcome),
          (error: unknown) => this.#decide({ kind: 'threw', error }),
        );
        return;
      }
    } catch (error) {
      outcome = { kind: 'threw', error };
    }
    this.#start(outcome);
  }

  /**
   * The rate limit (only for a job with `rateLimit`), then phase 3, start (unless an earlier
   * phase answered the outcome), then phase 4, the body.
   */
  #start(outcome: AttemptOutcome | undefined): void {
    const scope = this.#scope;
    // Drained before the body started: hand the row back without counting an attempt.
    const cause = scope.stop.cause;
    if (cause?.kind === 'drain' && outcome?.kind !== 'refused')
      outcome = { kind: 'threw', error: cause.error };
    if (outcome !== undefined) {
      this.#decide(outcome);
      return;
    }
    if (scope.definition?.rateLimit === undefined) {
      startAttempt(scope, this.#keeper as LeaseKeeper, this.#started);
      return;
    }
    takeRateLimit(scope).then(
      (limited) =>
        limited === undefined
          ? startAttempt(scope, this.#keeper as LeaseKeeper, this.#started)
          : this.#decide(limited),
      (error: unknown) => this.#decide({ kind: 'threw', error }),
    );
  }

  /** After the start: the body, or the outcome the start answered. */
  readonly #started = (outcome: AttemptOutcome | undefined): void => {
    if (outcome !== undefined) this.#decide(outcome);
    else runBody(this.#scope, this.#decided);
  };

  readonly #decided = (outcome: AttemptOutcome): void => this.#decide(outcome);

  /** Phases 5–6: decide (purely), count an unstarted attempt that spends one, unwind. */
  #decide(outcome: AttemptOutcome): void {
    const scope = this.#scope;
    if (scope.startLanding !== undefined) {
      this.#awaitStart(outcome, scope.startLanding);
      return;
    }
    try {
      const definition = scope.definition;
      const settlement = decideSettlement({
        cause: scope.stop.cause,
        outcome,
        attempt: scope.job.attempt,
        policy: definition?.retry ?? DEFAULT_RETRY_POLICY,
        retryAttempts: definition?.retry.attempts ?? 0,
        unwindable: definition?.compensates === true && (scope.runner?.compensations.length ?? 0) > 0,
      });
      if (!scope.started && outcome.kind !== 'exhausted') {
        countUnstarted(scope, this.#keeper as LeaseKeeper, settlement).then(
          (counted) => this.#unwind(counted),
          (error: unknown) => this.#end(undefined, error),
        );
        return;
      }
      this.#unwind(settlement);
    } catch (error) {
      this.#end(undefined, error);
    }
  }

  /**
   * The body ended while its overlapped start was in flight: its slot frees now, and the decision
   * waits for the start to land — or for the lease to be lost meanwhile (a start that hangs in a
   * partition), which decides `lost` without it.
   */
  #awaitStart(outcome: AttemptOutcome, landing: Promise<void>): void {
    const scope = this.#scope;
    this.#workDone();
    let waiting = true;
    const decide = () => {
      if (!waiting) return;
      waiting = false;
      abandonStartLanding(scope);
      this.#decide(outcome);
    };
    landing.then(decide);
    scope.stop.whenEnded(() => {
      if (scope.stop.cause?.kind === 'lease-lost') decide();
    });
  }

  #unwind(settlement: Settlement): void {
    if (settlement.kind !== 'unwind') {
      this.#settle(settlement);
      return;
    }
    unwind(this.#scope, settlement).then(
      (unwound) => this.#settle(unwound as Exclude<Settlement, { kind: 'unwind' }>),
      (error: unknown) => this.#end(undefined, error),
    );
  }

  /** Phase 7: the one settle. */
  #settle(settlement: Exclude<Settlement, { kind: 'unwind' }>): void {
    try {
      this.#workDone();
      applySettlement(this.#scope, this.#keeper as LeaseKeeper, settlement, this.#landed, this.#crashed);
    } catch (error) {
      this.#end(undefined, error);
    }
  }

  /** Tells the worker, once, that only the settle remains (its slot may take the next job). */
  #workDone(): void {
    const done = this.#onWorkDone;
    this.#onWorkDone = undefined;
    done?.();
  }

  readonly #landed = (result: ExecutionResult): void => this.#end(result, undefined);
  readonly #crashed = (error: unknown): void => this.#end(undefined, error);

  /** Stops the keeper, releases the fleet slot, then answers `result` (or rejects with `error`). */
  #end(result: ExecutionResult | undefined, error: unknown): void {
    const scope = this.#scope;
    const resolve = this.#resolve as (result: ExecutionResult) => void;
    const reject = this.#reject as (error: unknown) => void;
    try {
      this.#keeper?.stop();
      if (scope.slot !== null) {
        releaseFleetSlot(scope).then(() => (result === undefined ? reject(error) : resolve(result)), reject);
        return;
      }
    } catch (thrown) {
      reject(thrown);
      return;
    }
    if (result === undefined) reject(error);
    else resolve(result);
  }
}
