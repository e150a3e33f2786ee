/**
 * How an execution ended, from the executor's point of view: `ExecutionResult.outcome`, and (but
 * for `'settle-failed'`, a settle that never landed) the `outcome` label of `jobs_total`.
 */
export type ExecutionOutcome =
  | 'completed'
  | 'retried'
  | 'dead'
  | 'suspended'
  | 'released'
  | 'cancelled'
  | 'lease-lost'
  | 'settle-failed';
