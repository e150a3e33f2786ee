import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  createWorker,
  type JobDriver,
  JobsError,
  job,
  resetJobDriver,
  setJobDriver,
  silentLogger,
} from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { postgresJobDriver } from '@x/jobs-driver-pg';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTelemetry, type Telemetry } from './start-telemetry.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SCHEMA = `x_jobs_attempt_links_${process.pid}`;

/** Fails its first two attempts, succeeds on the third: three attempt spans in one trace. */
const twiceFlaky = job({
  name: 'otel-twice-flaky',
  input: z.object({ n: z.number() }),
  idempotencyKey: ({ n }) => `twice-flaky:${n}`,
  tenant: 'none',
  queue: 'otel-links',
  retry: { attempts: 3, delay: 1, backoff: 'fixed' },
  async run({ ctx }) {
    if (ctx.attempt < 3) throw new JobsError('X_UPSTREAM_DOWN', `attempt ${ctx.attempt} failed`);
  },
});

const registry = { get: (name: string) => (name === twiceFlaky.name ? twiceFlaky : undefined) };

const backends: readonly { readonly name: string; readonly open: () => JobDriver }[] = [
  { name: 'memory', open: () => memoryJobDriver() },
  { name: 'postgres', open: () => postgresJobDriver({ connectionString: DATABASE_URL }, { schema: SCHEMA }) },
];

const spans = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(spans);
let telemetry: Telemetry;

beforeAll(async () => {
  telemetry = await startTelemetry({ exporter: 'none', spanProcessors: [processor], metricReaders: [] });
});
afterAll(async () => {
  await telemetry.shutdown();
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`drop schema if exists "${SCHEMA}" cascade`);
  await admin.end();
});

describe.each(backends)('the job span of attempt N links to attempt N−1 ($name)', ({ open }) => {
  it('links each attempt’s job span to the previous attempt’s, read off the error that attempt recorded', async () => {
    spans.reset();
    const driver = open();
    try {
      setJobDriver(driver);
      const { id } = await twiceFlaky.enqueue({ n: 1 });
      const worker = createWorker({
        driver,
        context: () => ({}),
        registry,
        queues: ['otel-links'],
        handleSignals: false,
        logger: silentLogger,
      });
      await worker.start();
      await expect
        .poll(async () => (await driver.introspect?.get(id))?.state, { timeout: 30_000, interval: 50 })
        .toBe('done');
      await worker.stop();
      await processor.forceFlush();
      const attempts = spans
        .getFinishedSpans()
        .filter(
          (span) => span.name === 'job otel-twice-flaky' && span.attributes['messaging.message.id'] === id,
        )
        .sort((a, b) => Number(a.attributes['x_jobs.attempt']) - Number(b.attributes['x_jobs.attempt']));
      expect(attempts.map((span) => span.attributes['x_jobs.attempt'])).toEqual([1, 2, 3]);
      const [first, second, third] = attempts as [ReadableSpan, ReadableSpan, ReadableSpan];
      expect(first.links, 'the first attempt has no previous one').toEqual([]);
      expect(second.links.map((link) => link.context.spanId)).toEqual([first.spanContext().spanId]);
      expect(third.links.map((link) => link.context.spanId)).toEqual([second.spanContext().spanId]);
      expect(third.links[0]?.context.traceId).toBe(second.spanContext().traceId);
      expect(third.links[0]?.attributes).toEqual({ 'x_jobs.link': 'previous-attempt' });
      // Every attempt stays a child of the one enqueue span: one trace, linked attempt to attempt.
      expect(new Set(attempts.map((span) => span.parentSpanContext?.spanId)).size).toBe(1);
    } finally {
      resetJobDriver();
      await driver.close();
    }
  });
});
