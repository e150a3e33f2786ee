import { errorCode } from '../errors/jobs-error.js';
import { leaseLostError } from '../steps/failure.js';
import type { AttemptScope } from './attempt-scope.js';
import { renewFleetSlot, slotLostError } from './fleet-slot.js';
import { type RenewalHandlers, type RenewalTimer, startRenewalTimer } from './renewal-timer.js';

/**
 * The lease keeper of one attempt: renews the row's lease (and its fleet slot) every heartbeat
 * interval from the claim **until the settle lands** (not until the body returns: a slow or
 * retried ack keeps the row), and stops the attempt when the row is no longer safely its own:
 *
 * - a renewal answers false (cancelled, reclaimed) → stop `lease-lost`, `refused`: nothing is settled;
 * - the slot renewal answers null → stop `slot-lost` (the attempt fails and is retried);
 * - a whole window passes with no renewal landing — renewals throwing (a partition) or hanging
 *   alike — → `jobs.lease.lost` (once per attempt), `job_leases_lost_total`, and stop
 *   `lease-lost`: `ctx.signal` aborts at once, so no other worker's redelivery runs beside it.
 *
 * The window is measured from when the last landed renewal was sent, so the abort comes no later
 * than the backend's lease lapses. Each thrown renewal logs `jobs.heartbeat.failed`.
 */
export class LeaseKeeper implements RenewalHandlers {
  readonly #scope: AttemptScope;
  readonly #timer: RenewalTimer;
  #slotLost = false;

  constructor(scope: AttemptScope, leaseFrom: number) {
    this.#scope = scope;
    const settings = scope.settings;
    const interval =
      settings.heartbeatIntervalMs ?? Math.max(1, Math.floor(settings.visibilityTimeoutMs / 3));
    this.#timer = startRenewalTimer(interval, settings.visibilityTimeoutMs, this, leaseFrom);
  }

  /** True once a whole window passed with no renewal landing: the row may be someone else's. */
  get lapsed(): boolean {
    return this.#timer.lapsed;
  }

  /** A `start` sent at `sentAt` landed: it extended the lease like a renewal. */
  landed(sentAt: number): void {
    this.#timer.landed(sentAt);
  }

  /** Stops renewing: the settle landed, or the worker gave up on the attempt (drain deadline). */
  stop(): void {
    this.#timer.stop();
  }

  /** Renews the lease, then the slot; false once either is no longer this attempt's. */
  async renew(): Promise<boolean> {
    const scope = this.#scope;
    const job = scope.job;
    if (!(await scope.driver.heartbeat(job.id, job.claim, scope.settings.visibilityTimeoutMs))) return false;
    if (await renewFleetSlot(scope)) return true;
    this.#slotLost = true;
    return false;
  }

  onFailed(error: unknown): void {
    const scope = this.#scope;
    scope.settings.logger.log('warn', 'jobs.heartbeat.failed', {
      ...scope.logFields(),
      code: errorCode(error) ?? null,
    });
  }

  onLost(): void {
    const scope = this.#scope;
    scope.settings.logger.log('error', 'jobs.lease.lost', scope.logFields());
    scope.settings.metrics?.leaseLost(scope.job.queue);
    scope.stop.stop({ kind: 'lease-lost', error: leaseLostError(scope.job.id), refused: false });
  }

  onRefused(): void {
    const scope = this.#scope;
    if (this.#slotLost) scope.stop.stop({ kind: 'slot-lost', error: slotLostError(scope) });
    else scope.stop.stop({ kind: 'lease-lost', error: leaseLostError(scope.job.id), refused: true });
  }
}
