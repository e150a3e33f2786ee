import type { Duration } from '../values/duration.js';
import type { JobActor } from './job-actor.js';

/** Options of `handle.enqueue` and `handle.as`. */
export interface EnqueueOptions {
  /** Not claimable before this time (a `Date` or epoch ms). Exclusive with `delay`. (Default: now) */
  readonly runAt?: Date | number;
  /** Not claimable before now + `delay` (on the installed driver's clock). Exclusive with `runAt`. */
  readonly delay?: Duration | 0;
  /** Higher runs first; a 32-bit integer. (Default: the job's `priority`, else 0) */
  readonly priority?: number;
  /**
   * The tenant the caller expects. It must equal `tenant(input)`, else `X_JOB_TENANT_MISMATCH`;
   * for a `tenant: 'none'` job only null is accepted. (Default: derived from the input)
   */
  readonly tenantId?: string | null;
  /** The run id, when the caller needs to know it up front. (Default: a random UUID) */
  readonly runId?: string;
  /**
   * A live row with the same key: `'dedupe'` answers it with `deduped: true`; `'error'` throws
   * `X_JOB_DUPLICATE`. (Default: 'dedupe')
   */
  readonly onConflict?: 'dedupe' | 'error';
}

/** Options shared by every input of `handle.enqueueMany`: no `runId` and no `onConflict: 'error'`. */
export type EnqueueManyOptions = Omit<EnqueueOptions, 'runId' | 'onConflict'>;

/** Options of {@link prepareEnqueue}: the enqueue options plus the actor `handle.as` passes. */
export interface PrepareEnqueueOptions extends EnqueueOptions {
  /**
   * Enqueue on behalf of this actor: `enqueuedBy = actor.id`; a non-null `actor.orgId` must equal
   * the derived tenant (else `X_JOB_TENANT_MISMATCH`).
   */
  readonly actor?: JobActor;
}
