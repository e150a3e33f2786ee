import type { ResolvedRetryPolicy } from '../retry/retry-policy.js';

/**
 * A job's manifest row (`handle.describe()`): what the CLI, dashboards and `inspectManifest()`
 * read. Durations in milliseconds; step names are absent by design (they are chosen at run time).
 */
export interface JobDescriptor {
  readonly kind: 'job';
  readonly name: string;
  readonly queue: string;
  readonly priority: number;
  readonly retry: ResolvedRetryPolicy;
  /** `keyed` says whether the cap is split per `concurrency.key(input)`. */
  readonly concurrency: {
    readonly limit: number;
    readonly keyed: boolean;
    readonly whenBusy: 'wait' | 'fail';
  } | null;
  /** `keyed` says whether the budget is split or shared by `rateLimit.key`. */
  readonly rateLimit: {
    readonly limit: number;
    readonly perMs: number;
    readonly keyed: boolean;
  } | null;
  readonly timeoutMs: number | null;
  readonly stepTimeoutMs: number | null;
  readonly eventPollMs: number | null;
  /** `'input'`: derived by the definition's `tenant(input)`; `'none'`: the job has no tenant. */
  readonly tenant: 'input' | 'none';
  readonly compensates: boolean;
}
