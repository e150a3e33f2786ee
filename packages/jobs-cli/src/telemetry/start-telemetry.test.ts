import { hostname } from 'node:os';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { type CollectionResult, MetricReader } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  type AnyJobHandle,
  CORE_VERSION,
  createWorker,
  type JobDriver,
  JobsError,
  job,
  jsonLinesLogger,
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

type Point = { readonly attributes: Record<string, unknown>; readonly value: unknown };

function pointsOf(result: CollectionResult, metric: string): Point[] {
  return result.resourceMetrics.scopeMetrics.flatMap((scope) =>
    scope.metrics
      .filter((data) => data.descriptor.name === metric)
      .flatMap((data) => data.dataPoints as Point[]),
  );
}

/** The number of recordings a histogram holds for the points matching `attributes`. */
function countOf(result: CollectionResult, metric: string, attributes: Record<string, string>): number {
  return pointsOf(result, metric)
    .filter((point) => Object.entries(attributes).every(([key, value]) => point.attributes[key] === value))
    .reduce((total, point) => total + (point.value as { count: number }).count, 0);
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
    // The enqueue is a PRODUCER span under the request's; the attempt a CONSUMER span under it.
    const jobSpan = byName('job otel-checkout');
    const producer = finished.find(
      (candidate) =>
        candidate.name === 'send otel-main' &&
        candidate.spanContext().spanId === jobSpan.parentSpanContext?.spanId,
    );
    expect(producer?.kind).toBe(SpanKind.PRODUCER);
    expect(producer?.parentSpanContext?.spanId).toBe(spanId);
    expect(producer?.spanContext().traceId).toBe(traceId);
    expect(producer?.attributes).toMatchObject({
      'messaging.system': 'x-jobs',
      'messaging.destination.name': 'otel-main',
      'messaging.operation.type': 'send',
      'x_jobs.job.name': 'otel-checkout',
    });
    expect(jobSpan.kind).toBe(SpanKind.CONSUMER);
    expect(jobSpan.spanContext().traceId).toBe(traceId);
    expect(jobSpan.attributes).toMatchObject({
      'x_jobs.outcome': 'completed',
      'messaging.system': 'x-jobs',
      'messaging.destination.name': 'otel-main',
      'messaging.operation.type': 'process',
      'messaging.message.id': producer?.attributes['messaging.message.id'],
      'x_jobs.attempt': 1,
    });
    expect(jobSpan.instrumentationScope).toMatchObject({ name: '@x/jobs-core', version: CORE_VERSION });
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
    expect(
      sumOf(collected, 'jobs_total', { queue: 'otel-main', job_name: 'otel-flaky', outcome: 'retried' }),
    ).toBe(1);
    expect(
      countOf(collected, 'job_duration_seconds', {
        queue: 'otel-main',
        job_name: 'otel-checkout',
        outcome: 'completed',
      }),
    ).toBe(1);
    expect(pointsOf(collected, 'job_worker_capacity').map((point) => point.attributes)).toContainEqual({
      worker: hostname(),
    });
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

  it('gives a job enqueued outside any span a trace of its own: the PRODUCER span is its root', async () => {
    spans.reset();
    await backlog.enqueue({ n: 3 });
    const worker = createWorker({
      driver,
      context: () => ({}),
      registry,
      queues: ['otel-backlog'],
      handleSignals: false,
      logger: silentLogger,
    });
    await worker.start();
    await expect.poll(() => worker.stats().counts.completed ?? 0).toBeGreaterThan(0);
    await worker.stop();
    await processor.forceFlush();
    const finished = spans.getFinishedSpans();
    const producer = finished.find(
      (span) => span.name === 'send otel-backlog' && span.attributes['x_jobs.job.name'] === 'otel-backlog',
    );
    expect(producer?.parentSpanContext).toBeUndefined();
    const attempt = finished.find(
      (span) =>
        span.name === 'job otel-backlog' &&
        span.attributes['messaging.message.id'] === producer?.attributes['messaging.message.id'],
    );
    expect(attempt?.spanContext().traceId).toBe(producer?.spanContext().traceId);
    expect(attempt?.parentSpanContext?.spanId).toBe(producer?.spanContext().spanId);
  });

  it('writes trace_id and span_id on a JSON log line written inside a span, none outside', () => {
    const lines: string[] = [];
    const logger = jsonLinesLogger({ write: (line) => lines.push(line) });
    const inside = trace.getTracer('x-jobs-cli-test').startActiveSpan('logging', (span) => {
      logger.log('info', 'jobs.test.inside', { n: 1 });
      span.end();
      return span.spanContext();
    });
    logger.log('info', 'jobs.test.outside');
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({
      event: 'jobs.test.inside',
      trace_id: inside.traceId,
      span_id: inside.spanId,
      n: 1,
    });
    expect(second?.event).toBe('jobs.test.outside');
    expect(second).not.toHaveProperty('trace_id');
  });

  it('loads no SDK when telemetry is off', async () => {
    const off = await startTelemetry({ exporter: 'none' });
    expect(off.exporter).toBe('none');
    await expect(off.shutdown()).resolves.toBeUndefined();
  });
});
