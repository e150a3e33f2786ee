import type { JobsLogger } from '../telemetry/logger.js';

/** What {@link Worker.health} answers: whether the worker is alive, and whether it is consuming. */
export interface WorkerHealth {
  /**
   * Liveness: every claim loop came round within `stallMs` (and the worker has not stopped). False
   * means "up but not consuming": a claim stuck in a call that never returns, a loop that died. Restart it.
   */
  readonly live: boolean;
  /**
   * Readiness: live, running (not idle, draining or stopped), its latest claim reached the backend
   * and no lease renewal failed within the last lease window. False while the backend is down or
   * misconfigured; it comes back by itself once a claim lands again.
   */
  readonly ready: boolean;
  readonly state: 'idle' | 'running' | 'draining' | 'stopped';
  /** `reachable` after a claim that landed, `unreachable` after one that failed, `unknown` before the first. */
  readonly backend: 'reachable' | 'unreachable' | 'unknown';
  /** The error code of the latest failed claim while the backend is unreachable, else null. */
  readonly backendError: string | null;
  /** When a claim last reached the backend (epoch ms, whether it found rows or not), or null. */
  readonly lastClaimAt: number | null;
  /** When a claim last came back with rows (epoch ms), or null. */
  readonly lastJobClaimedAt: number | null;
  /** `failing` when a lease renewal failed within the last lease window (`visibilityTimeoutMs`). */
  readonly renewals: 'ok' | 'failing';
  /** When a renewal last failed (epoch ms), or null. */
  readonly lastRenewalFailureAt: number | null;
  /** How long since the slowest claim loop last came round, in ms (0 when no loop runs). */
  readonly sinceLoopMs: number;
  /** The threshold for `live`, in ms: the worker's documented bound for detecting a stalled loop. */
  readonly stallMs: number;
  /** Why `live` or `ready` is false, one short phrase each; empty when both are true. */
  readonly reasons: readonly string[];
}

/**
 * The default stall threshold: three idle polls plus 15 s (30 s with a driver wake's 5 s poll), long
 * enough for a claim that waits on a connect timeout (10 s on Postgres) and a slow statement.
 */
export function defaultStallMs(idlePollMaxMs: number): number {
  return 3 * idlePollMaxMs + 15_000;
}

/**
 * The worker's record of its own progress, read by `worker.health()`: each claim loop marks every
 * turn and every claim outcome here, and renewal failures are seen on the worker's logger
 * (`jobs.heartbeat.failed`), so nothing in the execution path changes for it.
 */
export class HealthTracker {
  readonly stallMs: number;
  readonly #visibilityTimeoutMs: number;
  /** Per pool: when its loop last came round (`performance.now()`). */
  readonly #loops = new Map<string, number>();
  #backend: WorkerHealth['backend'] = 'unknown';
  #backendError: string | null = null;
  #lastClaimAt: number | null = null;
  #lastJobClaimedAt: number | null = null;
  #lastRenewalFailureAt: number | null = null;

  constructor(stallMs: number, visibilityTimeoutMs: number) {
    this.stallMs = stallMs;
    this.#visibilityTimeoutMs = visibilityTimeoutMs;
  }

  /** A claim loop of `queue` came round (started, or about to claim or wait again). */
  loopTurned(queue: string): void {
    this.#loops.set(queue, performance.now());
  }

  /** A claim loop ended (the worker stops): it no longer counts towards liveness. */
  loopEnded(queue: string): void {
    this.#loops.delete(queue);
  }

  /** A claim landed with `rows` rows. */
  claimed(rows: number): void {
    this.#backend = 'reachable';
    this.#backendError = null;
    this.#lastClaimAt = Date.now();
    if (rows > 0) this.#lastJobClaimedAt = this.#lastClaimAt;
  }

  /** A claim failed with `code`. */
  claimFailed(code: string | null): void {
    this.#backend = 'unreachable';
    this.#backendError = code ?? 'ERROR';
  }

  /** Wraps `logger` so that renewal failures it logs are recorded here too. */
  watch(logger: JobsLogger): JobsLogger {
    return {
      log: (level, event, fields) => {
        if (event === 'jobs.heartbeat.failed' || event === 'jobs.lease.lost')
          this.#lastRenewalFailureAt = Date.now();
        logger.log(level, event, fields);
      },
    };
  }

  /** The health of a worker in `state`. */
  read(state: WorkerHealth['state']): WorkerHealth {
    const now = performance.now();
    let sinceLoopMs = 0;
    for (const at of this.#loops.values()) sinceLoopMs = Math.max(sinceLoopMs, now - at);
    sinceLoopMs = Math.round(sinceLoopMs);
    const renewals =
      this.#lastRenewalFailureAt !== null &&
      Date.now() - this.#lastRenewalFailureAt < this.#visibilityTimeoutMs
        ? 'failing'
        : 'ok';
    const reasons: string[] = [];
    if (state === 'stopped') reasons.push('the worker stopped');
    if (sinceLoopMs > this.stallMs) reasons.push(`a claim loop has not come round for ${sinceLoopMs} ms`);
    const live = reasons.length === 0;
    if (state !== 'running' && state !== 'stopped') reasons.push(`the worker is ${state}`);
    if (this.#backend === 'unreachable') reasons.push(`claims fail (${this.#backendError})`);
    if (this.#backend === 'unknown') reasons.push('no claim has reached the backend yet');
    if (renewals === 'failing') reasons.push('a lease renewal failed within the last lease window');
    return {
      live,
      ready: reasons.length === 0,
      state,
      backend: this.#backend,
      backendError: this.#backend === 'unreachable' ? this.#backendError : null,
      lastClaimAt: this.#lastClaimAt,
      lastJobClaimedAt: this.#lastJobClaimedAt,
      renewals,
      lastRenewalFailureAt: this.#lastRenewalFailureAt,
      sinceLoopMs,
      stallMs: this.stallMs,
      reasons,
    };
  }
}
