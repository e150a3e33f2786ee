import { type Attributes, type Counter, createNoopMeter, type Histogram, metrics } from '@opentelemetry/api';
import type { JobDriver } from '../driver/job-driver.js';
import type { ExecutionOutcome } from './execution-outcome.js';
import { CORE_VERSION } from './version.js';

/** The meter name every @x/jobs instrument is registered under. */
export const METER_NAME = '@x/jobs-core';

/**
 * How a settled attempt is counted in `jobs_total{queue,job_name,outcome}`: its
 * {@link ExecutionOutcome}, which a settle that failed never reaches.
 *
 * @deprecated Use `Exclude<ExecutionOutcome, 'settle-failed'>`; one name per idea.
 */
export type JobOutcomeLabel = Exclude<ExecutionOutcome, 'settle-failed'>;

/** The instruments a worker records into. Created per worker so an SDK started first is picked up. */
export interface JobMetrics {
  /**
   * One point per settled attempt: `jobs_total` +1 and its duration (ms since the attempt began)
   * into `job_duration_seconds`, both with `{queue, job_name, outcome}`.
   */
  outcome(
    job: { readonly queue: string; readonly name: string },
    outcome: Exclude<ExecutionOutcome, 'settle-failed'>,
    durationMs: number,
  ): void;
  /** One point per lease lost (a whole visibility window without a renewal). */
  leaseLost(queue: string): void;
  /** Stops observing (the gauges' callbacks are removed). */
  close(): void;
}

/**
 * Creates the worker's instruments through `@opentelemetry/api` (a no-op without an SDK), on the
 * meter `@x/jobs-core` at the package's version: `jobs_total` and the histogram
 * `job_duration_seconds` (`{queue, job_name, outcome}`), `job_leases_lost_total{queue}`, the
 * gauges `job_worker_in_flight` and `job_worker_capacity` (`{worker}`: the stable `workerName`,
 * never a per-process id, so a restarted worker continues one series), and the queue gauges
 * `queue_depth`, `queue_oldest_ready_seconds`, `queue_dead_jobs` read from `driver.stats()` when
 * a reader collects.
 *
 * Answers undefined when no MeterProvider is registered (the API's no-op meter): every instrument
 * would be a no-op, and the API never swaps one in later (it has no proxy for metrics), so the
 * worker skips the per-attempt timing and the calls altogether.
 */
export function createJobMetrics(options: {
  readonly driver: JobDriver;
  /** The worker's stable name (its host unless configured), the gauges' `worker` attribute. */
  readonly workerName: string;
  readonly inFlight: () => number;
  readonly capacity: () => number;
}): JobMetrics | undefined {
  const meter = metrics.getMeter(METER_NAME, CORE_VERSION);
  if (meter === createNoopMeter()) return undefined;
  const jobsTotal: Counter = meter.createCounter('jobs_total', {
    description: 'Settled job attempts by queue and outcome.',
  });
  const duration: Histogram = meter.createHistogram('job_duration_seconds', {
    description: 'Settled job attempts by duration, queue, job name and outcome.',
    unit: 's',
  });
  const leasesLost: Counter = meter.createCounter('job_leases_lost_total', {
    description: 'Leases that lapsed while this worker still ran the job.',
  });
  const inFlight = meter.createObservableGauge('job_worker_in_flight', {
    description: 'Jobs this worker is running now.',
  });
  const capacity = meter.createObservableGauge('job_worker_capacity', {
    description: 'Jobs this worker can run at once.',
  });
  const depth = meter.createObservableGauge('queue_depth', {
    description: 'Jobs waiting (ready + delayed).',
  });
  const oldest = meter.createObservableGauge('queue_oldest_ready_seconds', {
    description: 'Age of the oldest job due now.',
    unit: 's',
  });
  const dead = meter.createObservableGauge('queue_dead_jobs', { description: 'Dead-lettered jobs kept.' });

  const workerAttributes: Attributes = { worker: options.workerName };
  const observeWorker = (result: { observe(value: number, attributes?: Attributes): void }, value: number) =>
    result.observe(value, workerAttributes);
  const inFlightCallback = (result: { observe(value: number, attributes?: Attributes): void }) =>
    observeWorker(result, options.inFlight());
  const capacityCallback = (result: { observe(value: number, attributes?: Attributes): void }) =>
    observeWorker(result, options.capacity());
  inFlight.addCallback(inFlightCallback);
  capacity.addCallback(capacityCallback);

  const queueCallback = async (batch: {
    observe(instrument: unknown, value: number, attributes?: Attributes): void;
  }): Promise<void> => {
    const stats = await options.driver.stats();
    for (const queue of stats) {
      const attributes = { queue: queue.queue };
      batch.observe(depth, queue.counts.ready + queue.counts.delayed, attributes);
      batch.observe(oldest, queue.oldestReadyAgeMs === null ? 0 : queue.oldestReadyAgeMs / 1000, attributes);
      batch.observe(dead, queue.counts.dead, attributes);
    }
  };
  meter.addBatchObservableCallback(queueCallback as never, [depth, oldest, dead]);

  // One frozen attribute set per (queue, job name, outcome), made once: a settle allocates none.
  const outcomeSets = new Map<string, Map<string, Partial<Record<ExecutionOutcome, Attributes>>>>();
  const outcomeAttributes = (queue: string, jobName: string, outcome: ExecutionOutcome): Attributes => {
    let byName = outcomeSets.get(queue);
    if (byName === undefined) {
      byName = new Map();
      outcomeSets.set(queue, byName);
    }
    let byOutcome = byName.get(jobName);
    if (byOutcome === undefined) {
      byOutcome = {};
      byName.set(jobName, byOutcome);
    }
    let attributes = byOutcome[outcome];
    if (attributes === undefined) {
      attributes = Object.freeze({ queue, job_name: jobName, outcome });
      byOutcome[outcome] = attributes;
    }
    return attributes;
  };

  return {
    outcome: (job, outcome, durationMs) => {
      const attributes = outcomeAttributes(job.queue, job.name, outcome);
      jobsTotal.add(1, attributes);
      duration.record(durationMs / 1000, attributes);
    },
    leaseLost: (queue) => leasesLost.add(1, { queue }),
    close: () => {
      inFlight.removeCallback(inFlightCallback);
      capacity.removeCallback(capacityCallback);
      meter.removeBatchObservableCallback(queueCallback as never, [depth, oldest, dead]);
    },
  };
}
