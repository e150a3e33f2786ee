import { type Link, SpanKind } from '@opentelemetry/api';
import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import { DEFAULT_RETRY_POLICY } from '../retry/retry-policy.js';
import { previousAttemptLinks, traceparentOfSpan } from '../telemetry/attempt-link.js';
import { contextFromTraceparent, inSpan, sdkTracer } from '../telemetry/job-tracing.js';
import { consumerAttributes } from '../telemetry/messaging-attributes.js';
import { admit } from './admit.js';
import { applySettlement } from './apply-settlement.js';
import { AttemptScope } from './attempt-scope.js';
import { countUnstarted, startAttempt } from './attempt-start.js';
import { decideSettlement } from './decide-settlement.js';
import type { ExecutionResult, ExecutionSettings } from './execution-settings.js';
import { leaseLostError } from './failure.js';
import { releaseFleetSlot, takeFleetSlot } from './fleet-slot.js';
import { LeaseKeeper } from './lease-keeper.js';
import { runBody } from './run-body.js';
import type { AttemptOutcome } from './settlement.js';
import { unwind } from './unwind.js';

export type {
  ExecutionOutcome,
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
 * 1. **admit** — definition, input, tenant; 2. **fleet slot** — `job.concurrency`;
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
  if (job.attempt > 1 && sdkTracer() !== undefined) {
    return previousAttemptLinks(execution.driver, job.id).then((links) => runInJobSpan(execution, links));
  }
  return runInJobSpan(execution, undefined);
}

function runInJobSpan(execution: Execution, links: Link[] | undefined): Promise<ExecutionResult> {
  const job = execution.job;
  return inSpan(
    `job ${job.name}`,
    contextFromTraceparent(job.traceparent),
    () => consumerAttributes(job),
    (span) => {
      if (span === undefined) return execution.run();
      execution.traceWith(traceparentOfSpan(span));
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
  readonly #onWorkDone: (() => void) | undefined;
  readonly #leaseFrom: number;
  #keeper: LeaseKeeper | undefined;
  #abandoned = false;

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

  /** Records this attempt's job span, so the error a retry or dead-letter stores names it. */
  traceWith(traceparent: string): void {
    this.#scope.traceparent = traceparent;
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

  /** Runs the claimed row to its settle, once. */
  async run(): Promise<ExecutionResult> {
    const scope = this.#scope;
    const keeper = new LeaseKeeper(scope, this.#leaseFrom);
    this.#keeper = keeper;
    if (this.#abandoned) keeper.stop();
    try {
      // Phases 1–4 (one frame: each await here is a phase that may answer the outcome).
      let outcome: AttemptOutcome;
      try {
        outcome = admit(scope) ?? NO_OUTCOME;
        if (outcome === NO_OUTCOME && scope.definition?.concurrency !== undefined) {
          outcome = (await takeFleetSlot(scope)) ?? NO_OUTCOME;
        }
        // Drained before the body started: hand the row back without counting an attempt.
        const cause = scope.stop.cause;
        if (cause?.kind === 'drain' && outcome.kind !== 'refused')
          outcome = { kind: 'threw', error: cause.error };
        if (outcome === NO_OUTCOME) outcome = (await startAttempt(scope, keeper)) ?? (await runBody(scope));
      } catch (error) {
        outcome = { kind: 'threw', error };
      }
      // Phases 5–6: decide, unwind.
      const definition = scope.definition;
      let settlement = decideSettlement({
        cause: scope.stop.cause,
        outcome,
        attempt: scope.job.attempt,
        policy: definition?.retry ?? DEFAULT_RETRY_POLICY,
        retryAttempts: definition?.retry.attempts ?? 0,
        unwindable: definition?.compensates === true && (scope.runner?.compensations.length ?? 0) > 0,
      });
      if (!scope.started && outcome.kind !== 'exhausted') {
        settlement = await countUnstarted(scope, keeper, settlement);
      }
      if (settlement.kind === 'unwind') settlement = await unwind(scope, settlement);
      // Phase 7: the one settle.
      this.#onWorkDone?.();
      return await applySettlement(
        scope,
        keeper,
        settlement as Exclude<typeof settlement, { kind: 'unwind' }>,
      );
    } finally {
      keeper.stop();
      if (scope.slot !== null) await releaseFleetSlot(scope);
    }
  }
}

/** "No outcome yet": the phases so far let the attempt go on. */
const NO_OUTCOME: AttemptOutcome = Object.freeze({ kind: 'not-ours' });
