import { SpanStatusCode, trace } from '@opentelemetry/api';
import { type CollectionResult, MetricReader } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  type AnyJobHandle,
  createWorker,
  type JobDriver,
  JobsError,
  job,
  recordingLogger,
  resetJobDriver,
  setJobDriver,
  silentLogger,
} from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTelemetry, type Telemetry } from './start-telemetry.js';

/** A reader the test collects from on demand. */
class TestMetricReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const checkout = job({
  name: 'otel-checkout',
  input: z.object({ orderId: z.string() }),
  idempotencyKey: ({ orderId }) => `checkout:${orderId}`,
  tenant: 'none',
  queue: 'otel-main',
  async run({ input, step }) {
    await step.run('reserve', () => `reserved ${input.orderId}`);
    await step.run('capture', () => 'captured');
  },
});

const flaky = job({
  name: 'otel-flaky',
  input: z.object({}),
  idempotencyKey: () => 'flaky',
  tenant: 'none',
  queue: 'otel-main',
  retry: { attempts: 3, delay: '1h' },
  async run({ step }) {
    await step.run('charge', () => {
      throw new JobsError('X_CARD_DECLINED', 'card declined');
    });
  },
});

const slow = job({
  name: 'otel-slow',
  input: z.object({}),
  idempotencyKey: () => 'slow',
  tenant: 'none',
  queue: 'otel-leases',
  async run({ step }) {
    await step.run('long-call', () => new Promise((resolve) => setTimeout(resolve, 400)));
  },
});

const backlog = job({
  name: 'otel-backlog',
  input: z.object({ n: z.number() }),
  idempotencyKey: ({ n }) => `backlog:${n}`,
  tenant: 'none',
  queue: 'otel-backlog',
  async run() {},
});

const handles: readonly AnyJobHandle[] = [checkout, flaky, slow, backlog];
const registry = { get: (name: string) => handles.find((handle) => handle.name === name) };

/** A driver whose heartbeats all fail: a worker on it loses every lease it holds past one window. */
function withFailingHeartbeats(driver: JobDriver): JobDriver {
  return new Proxy(driver, {
    get(target, property) {
      if (property === 'heartbeat') {
        return () => Promise.reject(new JobsError('X_DRIVER_UNAVAILABLE', 'backend unreachable'));
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function sumOf(result: CollectionResult, metric: string, attributes: Record<string, string>): number {
  let total = 0;
  for (const scope of result.resourceMetrics.scopeMetrics) {
    for (const data of scope.metrics) {
      if (data.descriptor.name !== metric) continue;
      for (const point of data.dataPoints) {
        const matches = Object.entries(attributes).every(([key, value]) => point.attributes[key] === value);
        if (matches) total += point.value as number;
      }
    }
  }
  return total;
}

describe('OpenTelemetry end to end: the SDK the CLI starts receives core spans and metrics', () => {
  const spans = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(spans);
  const reader = new TestMetricReader();
  let telemetry: Telemetry;
  let driver: JobDriver;

  beforeAll(async () => {
    telemetry = await startTelemetry({
      exporter: 'none',
      spanProcessors: [processor],
      metricReaders: [reader],
    });
    driver = memoryJobDriver();
    setJobDriver(driver);
  });
  afterAll(async () => {
    resetJobDriver();
    await driver.close();
    await telemetry.shutdown();
  });

  it('runs a job enqueued inside a span in that trace: enqueue span → job span → one span per step', async () => {
    const tracer = trace.getTracer('x-jobs-cli-test');
    const enqueueSpan = await tracer.startActiveSpan('POST /checkout', async (span) => {
      await checkout.enqueue({ orderId: 'o-1' });
      await flaky.enqueue({});
      span.end();
      return span;
    });
    const worker = createWorker({
      driver,
      context: () => ({}),
      registry,
      queues: ['otel-main'],
      handleSignals: false,
      logger: silentLogger,
    });
    await worker.start();
    await expect.poll(() => worker.stats().counts.completed ?? 0).toBe(1);
    await expect.poll(() => worker.stats().counts.retried ?? 0).toBe(1);
    await backlog.enqueueMany([{ n: 1 }, { n: 2 }]);

    const collected = await reader.collect();
    await worker.stop();
    await processor.forceFlush();
    const finished = spans.getFinishedSpans();
    const byName = (name: string): ReadableSpan => {
      const found = finished.find((candidate) => candidate.name === name);
      if (found === undefined)
        throw new Error(`no span '${name}' among ${finished.map((s) => s.name).join(', ')}`);
      return found;
    };
    const { traceId, spanId } = enqueueSpan.spanContext();
    const jobSpan = byName('job otel-checkout');
    expect(jobSpan.spanContext().traceId).toBe(traceId);
    expect(jobSpan.parentSpanContext?.spanId).toBe(spanId);
    expect(jobSpan.attributes['x_jobs.outcome']).toBe('completed');
    for (const step of ['step reserve', 'step capture']) {
      expect(byName(step).spanContext().traceId).toBe(traceId);
      expect(byName(step).parentSpanContext?.spanId).toBe(jobSpan.spanContext().spanId);
    }

    // A failing step is recorded on its span; the job span says how the attempt ended.
    const charge = byName('step charge');
    expect(charge.status.code).toBe(SpanStatusCode.ERROR);
    expect(charge.attributes['x_jobs.error_code']).toBe('X_CARD_DECLINED');
    expect(charge.events.map((event) => event.name)).toContain('exception');
    expect(byName('job otel-flaky').attributes).toMatchObject({
      'x_jobs.outcome': 'retried',
      'x_jobs.error_code': 'X_CARD_DECLINED',
    });

    // Metrics: outcomes per queue, and the queue gauges read from the driver at collection.
    expect(sumOf(collected, 'jobs_total', { queue: 'otel-main', outcome: 'completed' })).toBe(1);
    expect(sumOf(collected, 'jobs_total', { queue: 'otel-main', outcome: 'retried' })).toBe(1);
    expect(sumOf(collected, 'queue_depth', { queue: 'otel-backlog' })).toBe(2);
    expect(sumOf(collected, 'queue_depth', { queue: 'otel-main' })).toBe(1); // the retry, delayed
    expect(sumOf(collected, 'queue_dead_jobs', { queue: 'otel-main' })).toBe(0);
  });

  it('counts a lease lost when no heartbeat lands for a whole visibility window', async () => {
    await slow.enqueue({});
    const logger = recordingLogger();
    const worker = createWorker({
      driver: withFailingHeartbeats(driver),
      context: () => ({}),
      registry,
      queues: ['otel-leases'],
      handleSignals: false,
      logger,
      visibilityTimeoutMs: 120,
      heartbeatIntervalMs: 20,
    });
    await worker.start();
    const lostEvents = () => logger.events.filter((entry) => entry.event === 'jobs.lease.lost').length;
    await expect.poll(lostEvents, { timeout: 5_000 }).toBeGreaterThan(0);
    // Redelivered after each lapse, the job can lose its lease again before the stop lands: compare
    // the counter with the events logged, once nothing runs any more.
    await worker.stop();
    const collected = await reader.collect();
    expect(sumOf(collected, 'job_leases_lost_total', { queue: 'otel-leases' })).toBe(lostEvents());
    const outcomes = worker.stats().counts;
    for (const outcome of ['lease-lost', 'completed']) {
      expect(sumOf(collected, 'jobs_total', { queue: 'otel-leases', outcome })).toBe(outcomes[outcome] ?? 0);
    }
  });

  it('loads no SDK when telemetry is off', async () => {
    const off = await startTelemetry({ exporter: 'none' });
    expect(off.exporter).toBe('none');
    await expect(off.shutdown()).resolves.toBeUndefined();
  });
});
