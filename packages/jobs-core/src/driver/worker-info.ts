/** What a worker reports about itself, for `x-jobs workers`. */
export interface WorkerInfo {
  readonly id: string;
  readonly queues: readonly string[];
  readonly concurrency: number;
  readonly inFlight: number;
  readonly host: string;
  readonly pid: number;
  readonly startedAt: number;
  /** Epoch ms of the last report; a worker unseen past its TTL is gone. */
  readonly lastSeenAt: number;
}
