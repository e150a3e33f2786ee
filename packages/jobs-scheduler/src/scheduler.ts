import type { Clock, JobDriver, JobsLogger } from '@x/jobs-core';
import { errorCode, jobRegistry, jsonLinesLogger } from '@x/jobs-core';
import type { ScheduleStore } from '@x/jobs-core/driver';
import { type DispatchContext, dispatchTask, type TaskDispatch } from './dispatch-task.js';
import { schedulerError } from './errors.js';
import { type SchedulerBackends, schedulerBackends } from './scheduler-backends.js';
import type { SchedulerLeader } from './scheduler-leader.js';
import type { TaskHandle } from './task.js';
import { taskSpec } from './task-spec.js';
import { onTerminationSignals } from './termination-signals.js';

/** Options of {@link createScheduler}. */
export interface SchedulerOptions {
  /** Where occurrences are enqueued; also the default home of the leader lease and the watermarks. */
  readonly driver: JobDriver;
  /** The tasks to dispatch. (Default: the tasks registered with core's `defineJobs`) */
  readonly tasks?: readonly TaskHandle[];
  /**
   * Who may dispatch. (Default: `leaseLeader(driver.leases)`: the lease `x-jobs:scheduler:leader`,
   * renewed every round, lapsing after max(30 s, 3 × tickMs) without one)
   */
  readonly leader?: SchedulerLeader;
  /** Watermarks and pause flags. (Default: `driver.schedules`) */
  readonly state?: ScheduleStore;
  /** Time between the end of one round and the start of the next, in ms. (Default: 1000) */
  readonly tickMs?: number;
  /** What "now" is. (Default: the driver's clock, `driver.now()`) */
  readonly clock?: Clock;
  /** Where rounds, fires and failures are reported. (Default: JSON lines on stderr) */
  readonly logger?: JobsLogger;
  /** Stop on SIGTERM / SIGINT: stop dispatching, finish the round, release the lease. (Default: true) */
  readonly handleSignals?: boolean;
}

/** What one dispatch round did. */
export interface SchedulerRound {
  /** The round's "now" (epoch ms): occurrences at or before it were due. */
  readonly at: number;
  /** False when another node leads (or the scheduler is stopped): nothing was dispatched. */
  readonly leader: boolean;
  /** One entry per task looked at, in task order. */
  readonly tasks: readonly TaskDispatch[];
}

/** A running (or startable) scheduler. */
export interface Scheduler {
  /**
   * Starts dispatching one round every `tickMs`. Refuses with `X_SCHEDULER_UNSAFE` when the
   * driver lacks leases or schedules and no leader/state was passed.
   */
  start(): Promise<void>;
  /** Stops dispatching, waits for the round in flight, releases the leader lease. Safe to call twice. */
  stop(): Promise<void>;
  /** Runs one round now, after any round in flight (tests drive a virtual clock with it). */
  tick(): Promise<SchedulerRound>;
  /** True between `start()` and `stop()`. */
  readonly running: boolean;
}

// The default leader lease outlives three missed rounds, and at least 30 s.
const DEFAULT_LEASE_TTL_MS = 30_000;
// A task whose entries cannot be built is retried no more than once a minute, not every round.
const ENTRIES_RETRY_MS = 60_000;

/**
 * Creates a scheduler: each round it takes (or renews) leadership, then for every task reads the
 * watermark, plans the catch-up, moves the watermark by compare-and-set and enqueues the fired
 * occurrences under occurrence-scoped keys. One round at a time; a demoted node dispatches nothing.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { driver } = options;
  if (typeof driver !== 'object' || driver === null || typeof driver.enqueueMany !== 'function') {
    throw schedulerError('X_SCHEDULER_OPTIONS_INVALID', 'driver: required, a JobDriver.', {
      field: 'driver',
    });
  }
  const tickMs = options.tickMs ?? 1_000;
  if (typeof tickMs !== 'number' || !Number.isFinite(tickMs) || tickMs <= 0) {
    throw schedulerError('X_SCHEDULER_OPTIONS_INVALID', `tickMs: a positive number of ms (got ${tickMs}).`, {
      field: 'tickMs',
    });
  }
  if (options.tasks !== undefined) for (const handle of options.tasks) taskSpec(handle);
  const currentTasks = (): readonly TaskHandle[] => options.tasks ?? (jobRegistry().tasks() as TaskHandle[]);
  const clock = options.clock ?? { now: () => driver.now() };
  const logger = options.logger ?? jsonLinesLogger();

  let backends: SchedulerBackends | undefined;
  const resolveBackends = (): SchedulerBackends => {
    backends ??= schedulerBackends(driver, {
      leader: options.leader,
      state: options.state,
      leaseTtlMs: Math.max(DEFAULT_LEASE_TTL_MS, 3 * Math.ceil(tickMs)),
    });
    return backends;
  };

  let running = false;
  let stopped = false;
  let leading = false;
  let timer: NodeJS.Timeout | undefined;
  let uninstallSignals: (() => void) | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const notBefore = new Map<TaskHandle, number>();

  const runRound = async (): Promise<SchedulerRound> => {
    const at = clock.now();
    if (stopped) return { at, leader: false, tasks: [] };
    const { leader, state } = resolveBackends();
    const tasks = currentTasks();
    assertDistinctNames(tasks);
    let leads: boolean;
    try {
      leads = await leader.acquire();
    } catch (error) {
      logger.log('warn', 'scheduler.leader.failed', { code: errorCode(error), error: String(error) });
      leads = false;
    }
    if (leads !== leading) {
      logger.log(leads ? 'info' : 'warn', leads ? 'scheduler.leader.acquired' : 'scheduler.leader.lost', {
        leader: leader.description,
      });
      leading = leads;
    }
    if (!leads) return { at, leader: false, tasks: [] };

    const context: DispatchContext = {
      state,
      logger,
      send: (requests) => driver.enqueueMany(requests),
    };
    const results: TaskDispatch[] = [];
    for (const handle of tasks) {
      const spec = taskSpec(handle);
      const name = handle.name;
      const waitUntil = notBefore.get(handle);
      if (waitUntil !== undefined && waitUntil > at) {
        results.push({ task: name, outcome: 'idle', nextAt: Number.isFinite(waitUntil) ? waitUntil : null });
        continue;
      }
      let dispatch: TaskDispatch;
      try {
        dispatch = await dispatchTask(context, name, spec, at);
      } catch (error) {
        logger.log('error', 'scheduler.task.state_failed', {
          task: name,
          code: errorCode(error),
          error: String(error),
        });
        dispatch = { task: name, outcome: 'failed', stage: 'state', code: errorCode(error) };
      }
      const wake = nextCheck(dispatch, spec.schedule.nextAfter, at);
      if (wake === undefined) notBefore.delete(handle);
      else notBefore.set(handle, wake);
      results.push(dispatch);
    }
    return { at, leader: true, tasks: results };
  };

  const tick = (): Promise<SchedulerRound> => {
    const round = chain.then(runRound);
    chain = round.catch(() => undefined);
    return round;
  };

  const loop = async (): Promise<void> => {
    timer = undefined;
    if (!running) return;
    try {
      await tick();
    } catch (error) {
      logger.log('error', 'scheduler.round.failed', { code: errorCode(error), error: String(error) });
    }
    if (running) timer = setTimeout(loop, tickMs);
  };

  const scheduler: Scheduler = {
    get running() {
      return running;
    },
    async start() {
      if (running) return;
      if (stopped) {
        throw schedulerError(
          'X_SCHEDULER_OPTIONS_INVALID',
          'This scheduler was stopped; create a new one.',
          {},
        );
      }
      const { leader, state } = resolveBackends();
      const tasks = currentTasks();
      for (const handle of tasks) taskSpec(handle);
      assertDistinctNames(tasks);
      const stateIsUnsafe = (state as { readonly unsafe?: unknown }).unsafe === true;
      if (leader.unsafe || stateIsUnsafe) {
        logger.log('warn', 'scheduler.unsafe', {
          leader: leader.description,
          state: stateIsUnsafe ? 'in-process (unsafe)' : 'durable',
        });
      }
      running = true;
      if (options.handleSignals ?? true) {
        uninstallSignals = onTerminationSignals((signal) => {
          logger.log('info', 'scheduler.stopping', { signal });
          void scheduler.stop();
        });
      }
      logger.log('info', 'scheduler.started', {
        tasks: tasks.map((handle) => handle.name),
        leader: leader.description,
        tickMs,
      });
      timer = setTimeout(loop, 0);
    },
    async stop() {
      if (stopped) return chain.then(() => undefined);
      stopped = true;
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      uninstallSignals?.();
      await chain;
      if (backends !== undefined && leading) {
        leading = false;
        await backends.leader.release().catch((error: unknown) => {
          logger.log('warn', 'scheduler.leader.release_failed', {
            code: errorCode(error),
            error: String(error),
          });
        });
      }
      logger.log('info', 'scheduler.stopped', {});
    },
    tick,
  };
  return scheduler;
}

function nextCheck(
  dispatch: TaskDispatch,
  nextAfter: (ms: number) => number | null,
  at: number,
): number | undefined {
  switch (dispatch.outcome) {
    case 'initialized':
    case 'fired':
      return nextAfter(dispatch.watermark) ?? Number.POSITIVE_INFINITY;
    case 'idle':
      return dispatch.nextAt ?? Number.POSITIVE_INFINITY;
    case 'failed':
      return dispatch.stage === 'entries' ? at + ENTRIES_RETRY_MS : undefined;
    default:
      return undefined;
  }
}

function assertDistinctNames(tasks: readonly TaskHandle[]): void {
  const seen = new Set<string>();
  for (const handle of tasks) {
    if (seen.has(handle.name)) {
      throw schedulerError(
        'X_SCHEDULER_OPTIONS_INVALID',
        `tasks: two tasks are named '${handle.name}'; a name keys the task's watermark, give each its own.`,
        { field: 'tasks', task: handle.name },
      );
    }
    seen.add(handle.name);
  }
}
