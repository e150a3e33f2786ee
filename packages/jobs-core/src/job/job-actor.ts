/**
 * Who a run acts as, and who asked for it. Inside a run `ctx.actor.orgId` is the tenant the job
 * declared (`null` for `tenant: 'none'`); on `handle.as(actor, …)` it is the enqueuer, recorded as
 * `enqueuedBy` for attribution, never authority.
 */
export interface JobActor {
  /** The actor's id (a user, a service). */
  readonly id: string;
  /** The org the actor acts within, or null for none. */
  readonly orgId: string | null;
}
