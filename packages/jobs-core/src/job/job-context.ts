import type { JobActor } from './job-actor.js';

/**
 * The app's own services, handed to every run as `ctx`. Empty by default; an app adds its members
 * by module augmentation, once, next to where it builds them for the worker:
 *
 * ```ts
 * declare module '@x/jobs-core' {
 *   interface JobContext { mail: Mailer; orgs: OrgService }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: apps extend it by module augmentation.
export interface JobContext {}

/** The `ctx` a run receives: the app's {@link JobContext} plus what the executor knows about this run. */
export interface JobRunContext extends JobContext {
  /**
   * Aborted on timeout, cancel, drain (`X_DRAINING`), a lost fleet slot or a lost lease (a renewal
   * refused, or a whole lease window with none landing: `X_JOB_LEASE_LOST`), before the attempt
   * is failed or handed back. Pass it to every outbound call; past the abort every step write is refused.
   */
  readonly signal: AbortSignal;
  /** The actor the run executes as: `orgId` is the declared tenant, null for `tenant: 'none'`. */
  readonly actor: JobActor;
  /** The job row's id. */
  readonly jobId: string;
  /** The run id: the key the run's steps are stored under. */
  readonly runId: string;
  /** The job's durable name. */
  readonly name: string;
  /** This attempt's number, 1-based. */
  readonly attempt: number;
}
