/** What every bench job carries: a sequence number to count runs by, and its enqueue time. */
export interface BenchPayload {
  /** Sequence number, unique within one measurement: the "distinct id" of the exactly-once check. */
  readonly i: number;
  /** Epoch milliseconds (sub-millisecond precision) taken just before the enqueue call. */
  readonly t: number;
}

/**
 * Called at the start of every handler invocation; the handler returns when it settles. Workloads
 * answer synchronously (a no-op job), except the fleet run, which gives each job some work time.
 */
export type OnJob = (payload: BenchPayload) => void | Promise<void>;

/** Options for {@link BenchSystem.startWorker}. */
export interface StartWorkerOptions {
  /** Handlers in flight at most, in this process. */
  readonly concurrency: number;
  /** Called once per handler invocation with the job's payload. */
  readonly onJob: OnJob;
  /**
   * How long a claimed job stays invisible without a heartbeat, for systems with leases (the fleet
   * run shortens it so killed workers' jobs come back within the run). (Default: the system's own)
   */
  readonly leaseMs?: number;
}

/** A worker started by an adapter; `stop` waits for handlers in flight and their settles. */
export interface RunningWorker {
  stop(): Promise<void>;
}

/** Durable-step measurements only our systems can take (W4). */
export interface StepProbe {
  /**
   * Empties the storage, enqueues `jobs` jobs of `steps` durable steps each and drains them at
   * `concurrency`; answers milliseconds from the first handler start to drained.
   */
  drainStepJobs(jobs: number, steps: number, concurrency: number): Promise<number>;
  /**
   * Runs one job through `steps` completed steps until it suspends, then times the next attempt,
   * which replays them all from storage and completes. Answers both attempts' milliseconds.
   */
  replay(steps: number): Promise<{ readonly firstRunMs: number; readonly replayMs: number }>;
}

/**
 * Durable step runs (W7), for systems with durable steps (ours and DBOS): `runs` runs of `steps`
 * no-op steps each. Every step body calls `onStep(run × steps + k)`; the workload checks that
 * each id ran exactly once.
 */
export interface StepRunner {
  /**
   * Empties the storage, enqueues the runs, drains them at `concurrency` and answers
   * milliseconds from the first step body to the last run settled.
   */
  drainRuns(runs: number, steps: number, concurrency: number, onStep: (id: number) => void): Promise<number>;
}

/** What one fair-claiming scenario run answers (see the `fair` workload). */
export interface FairRun {
  /** Tenant B's waits: handler start minus the epoch ms taken just before its enqueue call. */
  readonly bWaitsMs: readonly number[];
  /** Tenant A's jobs whose handler started before B's last one did. */
  readonly aBeforeLastB: number;
}

/** The fair-claiming scenario, on our systems only. */
export interface FairProbe {
  /**
   * Empties the storage, opens a driver whose fair-bench queue has `fairness` ('tenant' or
   * 'none'), starts a worker on it at `concurrency`, enqueues `aJobs` jobs of tenant A, then
   * `bJobs` of tenant B, and runs until every B job started (failing after `timeoutMs`). Answers
   * B's waits.
   */
  run(
    fairness: 'none' | 'tenant',
    aJobs: number,
    bJobs: number,
    concurrency: number,
    timeoutMs: number,
  ): Promise<FairRun>;
}

/** Which storage a system runs on: decides its database or Redis db index. */
export type Backend = 'pg' | 'redis' | 'memory';

/**
 * One queue system under test, behind the smallest surface every workload needs. Each adapter
 * configures its system the way its documentation recommends for throughput, in its own
 * database or Redis db index.
 */
export interface BenchSystem {
  readonly name: string;
  readonly backend: Backend;
  /** Versions worth printing next to the numbers (package name → version). */
  readonly versions: Readonly<Record<string, string>>;
  /**
   * The Postgres database the system keeps its jobs in, alone (W1 reads its per-job cost from the
   * server's counters of that database). Absent for other backends.
   */
  readonly database?: string;
  /**
   * Its hot tables (`schema.table`; a partitioned one counts with its partitions): where its
   * live jobs are claimed. W8 reads their dead tuples and size.
   */
  readonly hotTables?: readonly string[];
  /** Connects, creates the database or schema when missing. Idempotent; never deletes jobs. */
  setup(): Promise<void>;
  /** Deletes every job of the system: called before each measurement. */
  reset(): Promise<void>;
  /** Enqueues all payloads the system's fastest documented bulk way. */
  enqueueBulk(payloads: readonly BenchPayload[]): Promise<void>;
  /** Enqueues one payload, one round trip, the way an app enqueues from a request. */
  enqueueOne(payload: BenchPayload): Promise<void>;
  /** Starts a worker on the bench queue; resolves once it is running. */
  startWorker(options: StartWorkerOptions): Promise<RunningWorker>;
  /** Jobs not yet settled (queued, claimed or running): zero means drained. */
  pending(): Promise<number>;
  /** Jobs that ended failed or dead-lettered (systems that keep them); the fleet run reports it. */
  failed?(): Promise<number>;
  /** Present on our systems only: what W4 measures. */
  readonly stepProbe?: StepProbe;
  /** Present on our systems only: what the `fair` workload measures. */
  readonly fairProbe?: FairProbe;
  /** Present on systems with durable steps: what W7 measures. */
  readonly stepRunner?: StepRunner;
  /** Releases every connection the adapter holds. */
  close(): Promise<void>;
}
