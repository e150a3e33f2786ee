import {
  type AnyJobHandle,
  createWorker,
  type EnqueueInputOf,
  type EnqueueOptions,
  type JobContext,
  type JobDetail,
  type JobDriver,
  type JobsLogger,
  type JsonValue,
  jobsFacade,
  publishEvent,
  resetJobDriver,
  setJobDriver,
  silentLogger,
  type Worker,
} from '@x/jobs-core';
import { type EnqueueResult, type EventRecord, prepareEnqueue } from '@x/jobs-core/driver';
import { memoryJobDriver } from '../memory-job-driver.js';
import { type VirtualClock, virtualClock } from '../virtual-clock.js';
import { type StepTrace, stepTraceRecorder } from './step-trace.js';

/** Options of {@link createJobTestHarness}. */
export interface JobTestHarnessOptions {
  /** The job handles under test (and any job they enqueue). */
  readonly jobs: readonly AnyJobHandle[];
  /** Builds `ctx` for each run: your fakes. (Default: an empty context) */
  readonly context?: () => JobContext | Promise<JobContext>;
  /** The virtual clock; advance it to wake sleeps. (Default: one starting at the wall clock's now) */
  readonly clock?: VirtualClock;
  /** Where the worker logs. (Default: silent) */
  readonly logger?: JobsLogger;
  /** Passed to the worker. (Default: 30_000) */
  readonly visibilityTimeoutMs?: number;
}

/** What {@link JobTestHarness.drain} reports: the step trace so far and how many executions ran. */
export interface DrainReport extends StepTrace {
  /** Executions run by this drain. */
  readonly executed: number;
}

/** A memory driver, a virtual clock and the real worker, wired for a job test. */
export interface JobTestHarness {
  readonly driver: JobDriver;
  readonly clock: VirtualClock;
  readonly worker: Worker;
  /** Enqueues `input` for `handle` straight into the harness's driver (and answers the ids). */
  run<Handle extends AnyJobHandle>(
    handle: Handle,
    input: EnqueueInputOf<Handle>,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /**
   * Runs every due job to quiescence through the real worker and `executeJob`. Retries and
   * deferrals (`delayed` rows) are reached by moving the virtual clock to their run time; sleeps and
   * event waits (`suspended` rows) are not: advance the clock, or publish the event, then drain again.
   */
  drain(): Promise<DrainReport>;
  /** Publishes an event into the harness's driver. */
  publishEvent(event: string, payload: JsonValue): Promise<EventRecord>;
  /** The row and its steps. */
  job(id: string): Promise<JobDetail | null>;
  /** The step trace so far. */
  readonly trace: StepTrace;
  /** Uninstalls the ambient driver and closes the memory driver. */
  close(): Promise<void>;
}

/** The most clock jumps one drain makes before it reports a job that keeps retrying. */
const MAX_DRAIN_ROUNDS = 1_000;

/**
 * Creates a harness over a fresh memory driver and virtual clock, installed as the ambient driver
 * (so `handle.enqueue` inside a body lands in it). It drives the real worker — never a second
 * execution path — so a test asserts the step guarantee:
 *
 * ```ts
 * const h = createJobTestHarness({ jobs: [onboardOrg], context: () => fakes });
 * await h.run(onboardOrg, { orgId });
 * await h.drain();
 * h.clock.advance('3d');
 * const trace = await h.drain();
 * expect(trace.steps['provision'].executions).toBe(1);
 * ```
 */
export function createJobTestHarness(options: JobTestHarnessOptions): JobTestHarness {
  const clock = options.clock ?? virtualClock();
  const driver = memoryJobDriver({ clock });
  const registry = new Map<string, AnyJobHandle>();
  const recorder = stepTraceRecorder();
  const worker = createWorker({
    driver,
    context: options.context ?? (() => ({}) as JobContext),
    registry: { get: (name) => registry.get(name) ?? options.jobs.find((handle) => handle.name === name) },
    queues: [...new Set(options.jobs.map((handle) => handle.queue))],
    handleSignals: false,
    logger: options.logger ?? silentLogger,
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 30_000,
    doneRetentionMs: 0,
    observer: recorder.observer,
  });
  for (const handle of options.jobs) registry.set(handle.name, handle);
  setJobDriver(driver);

  return {
    driver,
    clock,
    worker,
    async run(handle, input, enqueueOptions) {
      registry.set(handle.name, handle);
      return jobsFacade().enqueue(prepareEnqueue(handle, input, enqueueOptions));
    },
    async drain() {
      let executed = 0;
      for (let round = 0; round < MAX_DRAIN_ROUNDS; round += 1) {
        executed += await worker.runDue();
        const next = await nextDelayedRunAt(driver);
        if (next === undefined) return { ...recorder.snapshot(), executed };
        if (next > clock.now()) clock.set(next);
      }
      throw new Error(`drain: jobs were still being retried after ${MAX_DRAIN_ROUNDS} rounds.`);
    },
    publishEvent: (event, payload) => publishEvent(event, payload, { driver }),
    job: async (id) => (await driver.introspect?.get(id)) ?? null,
    get trace() {
      return recorder.snapshot();
    },
    async close() {
      resetJobDriver();
      await driver.close();
    },
  };
}

/** The earliest run time of a `delayed` row (a retry or a deferral), or undefined. */
async function nextDelayedRunAt(driver: JobDriver): Promise<number | undefined> {
  let earliest: number | undefined;
  let cursor: string | undefined;
  do {
    const page = await driver.introspect!.list({
      state: 'delayed',
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    for (const row of page.jobs)
      earliest = earliest === undefined ? row.runAt : Math.min(earliest, row.runAt);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return earliest;
}
