import type { Duration } from '../values/duration.js';

/**
 * Caps held by ONE worker process (multiply by your replica count for the fleet). Over any cap a
 * claimed job is handed back with a later run time, its attempt uncounted — never dropped. For a
 * fleet-wide cap declare `concurrency` (runs at once) or `rateLimit` (starts per window) on the
 * job instead: those are held by the driver across every process.
 */
export interface LimitConfig {
  /** At most this many jobs of one tenant run at once in this process. (Default: no cap) */
  readonly perTenant?: number;
  /** At most this many jobs of one queue run at once (one number for every queue, or per queue). (Default: no cap) */
  readonly perQueue?: number | Readonly<Record<string, number>>;
  /** At most this many jobs run at once in this process across queues. (Default: the worker's capacity) */
  readonly global?: number;
  /**
   * At most `limit` job starts per tenant in each sliding `per` window, in this process: with N
   * replicas the fleet starts up to N × `limit`. For a limit the fleet holds (a partner API's
   * quota), declare `rateLimit: { key: (input) => input.orgId, limit, per }` on the job; both may
   * apply, and a run must pass each. (Default: no cap)
   */
  readonly ratePerTenant?: { readonly limit: number; readonly per: Duration };
}
