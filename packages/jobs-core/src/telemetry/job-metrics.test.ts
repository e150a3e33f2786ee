import { metrics } from '@opentelemetry/api';
import { type CollectionResult, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDriver } from '../driver/job-driver.js';
import { createJobMetrics } from './job-metrics.js';
import { CORE_VERSION } from './version.js';

class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

type Point = { readonly attributes: Record<string, unknown>; readonly value: unknown };

function pointsOf(result: CollectionResult, name: string): Point[] {
  return result.resourceMetrics.scopeMetrics.flatMap((scope) =>
    scope.metrics
      .filter((data) => data.descriptor.name === name)
      .flatMap((data) => data.dataPoints as Point[]),
  );
}

const driver = { stats: async () => [] } as unknown as JobDriver;

afterEach(() => metrics.disable());

describe('createJobMetrics', () => {
  it('counts and times each settled attempt by queue, job name and outcome, on a versioned meter', async () => {
    const reader = new TestReader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    const instruments = createJobMetrics({
      driver,
      workerName: 'w-a',
      inFlight: () => 2,
      capacity: () => 5,
    })!;
    instruments.outcome({ queue: 'q1', name: 'send-mail' }, 'completed', 1500);
    instruments.outcome({ queue: 'q1', name: 'send-mail' }, 'completed', 500);
    instruments.outcome({ queue: 'q1', name: 'charge' }, 'retried', 20);
    const { resourceMetrics } = await reader.collect();
    const collected = { resourceMetrics, errors: [] };
    expect(resourceMetrics.scopeMetrics[0]?.scope).toMatchObject({
      name: '@x/jobs-core',
      version: CORE_VERSION,
    });

    expect(pointsOf(collected, 'jobs_total')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          attributes: { queue: 'q1', job_name: 'send-mail', outcome: 'completed' },
          value: 2,
        }),
        expect.objectContaining({
          attributes: { queue: 'q1', job_name: 'charge', outcome: 'retried' },
          value: 1,
        }),
      ]),
    );
    const timed = pointsOf(collected, 'job_duration_seconds').find(
      (point) => point.attributes.job_name === 'send-mail',
    );
    expect(timed?.attributes).toEqual({ queue: 'q1', job_name: 'send-mail', outcome: 'completed' });
    expect(timed?.value).toMatchObject({ count: 2, sum: 2 });

    // The worker gauges carry only the stable worker name: a restart continues the same series.
    expect(pointsOf(collected, 'job_worker_in_flight')).toEqual([
      expect.objectContaining({ attributes: { worker: 'w-a' }, value: 2 }),
    ]);
    expect(pointsOf(collected, 'job_worker_capacity')).toEqual([
      expect.objectContaining({ attributes: { worker: 'w-a' }, value: 5 }),
    ]);
    instruments.close();
  });

  it('answers no instruments while no MeterProvider is registered, and real ones once one is', () => {
    const options = { driver, workerName: 'w-b', inFlight: () => 0, capacity: () => 1 };
    expect(createJobMetrics(options), 'the API no-op meter: nothing to record into').toBeUndefined();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new TestReader()] }));
    const instruments = createJobMetrics(options);
    expect(instruments?.outcome).toBeTypeOf('function');
    instruments?.close();
  });
});
