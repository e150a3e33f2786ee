/** Sizes and durations of every workload; the CLI can shrink them for a quick run. */
export interface BenchSettings {
  /** Measurements per (workload, system); the tables show their median with min–max. */
  readonly runs: number;
  /** W1: jobs enqueued in bulk, then one at a time; all of them are drained together. */
  readonly w1Bulk: number;
  readonly w1Single: number;
  /** W1 and W3 (c=10): handlers in flight. */
  readonly concurrency: number;
  /** W2: jobs enqueued one at a time into an idle worker, and the gap between them. */
  readonly w2Jobs: number;
  readonly w2IntervalMs: number;
  /** W3: jobs per drain, and the concurrencies tried in one process. */
  readonly w3Jobs: number;
  readonly w3Concurrencies: readonly number[];
  /** W3: worker processes of the multi-process drain (each at `concurrency`). */
  readonly w3Processes: number;
  /** W5: jobs drained by the memory driver. */
  readonly w5Jobs: number;
  /** W7: durable step runs per measurement (10 steps each). */
  readonly w7Runs: number;
  /** W6: seconds of idle worker CPU per run. */
  readonly w6Seconds: number;
  /** W8: seconds of steady load in each window (nothing held, then xmin held). */
  readonly w8Seconds: number;
  /** Fleet: jobs, worker processes, and the SIGKILL period. */
  readonly fleetJobs: number;
  readonly fleetProcesses: number;
  readonly fleetKillEveryMs: number;
  /** Fleet: the lease of a claimed job, so a killed worker's jobs come back within the run. */
  readonly fleetLeaseMs: number;
  /** Fleet: each job's handler time, so a SIGKILL lands on jobs mid-handler. */
  readonly fleetJobMs: number;
  /** Fair claiming: jobs tenant A enqueues first, then jobs tenant B enqueues right after. */
  readonly fairAJobs: number;
  readonly fairBJobs: number;
  /** Upper bound for any single drain before it counts as failed. */
  readonly drainTimeoutMs: number;
}

/** The sizes the issue specifies. */
export const FULL_SETTINGS: BenchSettings = {
  runs: 3,
  w1Bulk: 20_000,
  w1Single: 2_000,
  concurrency: 10,
  w2Jobs: 300,
  w2IntervalMs: 20,
  w3Jobs: 5_000,
  w3Concurrencies: [1, 10, 50],
  w3Processes: 2,
  w5Jobs: 50_000,
  w7Runs: 1_000,
  w6Seconds: 30,
  w8Seconds: 60,
  fleetJobs: 20_000,
  fleetProcesses: 4,
  fleetKillEveryMs: 2_000,
  fleetLeaseMs: 5_000,
  fleetJobMs: 5,
  fairAJobs: 20_000,
  fairBJobs: 100,
  drainTimeoutMs: 180_000,
};

/** A smoke run of the whole harness in a minute or two: every size divided by ten. */
export const QUICK_SETTINGS: BenchSettings = {
  ...FULL_SETTINGS,
  runs: 1,
  w1Bulk: 2_000,
  w1Single: 200,
  w7Runs: 100,
  w2Jobs: 50,
  w3Jobs: 1_000,
  w5Jobs: 5_000,
  w6Seconds: 3,
  w8Seconds: 6,
  fleetJobs: 2_000,
  fairAJobs: 2_000,
  fairBJobs: 10,
  drainTimeoutMs: 60_000,
};
