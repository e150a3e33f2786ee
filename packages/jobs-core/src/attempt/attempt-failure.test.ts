import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne } from '../../test/run-one.js';
import { job } from '../declare/job.js';

let names = 0;

/** A job whose step `charge` throws what `thrown()` answers; the body may wrap it. */
function failing(attempts: number, wrap: (error: unknown) => unknown = (error) => error) {
  return job({
    name: `attempt-failure-${++names}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    retry: { attempts, delay: '1ms', jitter: false },
    async run({ step }) {
      await step.run('lookup', () => 1);
      try {
        await step.run('charge', () => {
          throw new Error('upstream returned 500');
        });
      } catch (error) {
        throw wrap(error);
      }
    },
  });
}

afterEach(() => {
  trace.disable();
  context.disable();
});

describe('a failed attempt records its error: class, code, message, stack, step, attempt', () => {
  it('hands the record to the retry nack and logs it on jobs.attempt.failed', async () => {
    const fake = new FakeJobDriver();
    const handle = failing(3);
    const row = fake.add({ name: handle.name });
    const { result, logger } = runOne(fake, handle);
    expect((await result).outcome).toBe('retried');
    const [failure] = row.failures ?? [];
    expect(failure).toMatchObject({
      attempt: 1,
      name: 'Error',
      code: 'ERROR',
      message: 'upstream returned 500',
      step: 'charge',
      causes: [],
      truncated: false,
    });
    expect(failure?.stack).toMatch(/^Error: upstream returned 500\n\s+at /);
    expect(failure?.stack).toContain('attempt-failure.test');
    const line = logger.events.find((event) => event.event === 'jobs.attempt.failed');
    expect(line?.level).toBe('warn');
    expect(line?.fields).toMatchObject({
      jobId: row.id,
      attempt: 1,
      code: 'ERROR',
      errorName: 'Error',
      message: 'upstream returned 500',
      step: 'charge',
      stack: failure?.stack,
    });
  });

  it('dead: the record goes with the dead nack and the jobs.dead line carries it', async () => {
    const fake = new FakeJobDriver();
    const handle = failing(1, (error) => new Error('charge failed', { cause: error }));
    const row = fake.add({ name: handle.name });
    const { result, logger } = runOne(fake, handle);
    expect((await result).outcome).toBe('dead');
    const [failure] = row.failures ?? [];
    expect(failure).toMatchObject({
      attempt: 1,
      message: 'charge failed',
      step: 'charge', // the body wrapped the step's error: the cause chain names the step
      causes: [{ name: 'Error', code: null, message: 'upstream returned 500' }],
    });
    const line = logger.events.find((event) => event.event === 'jobs.dead');
    expect(line?.level).toBe('error');
    expect(line?.fields).toMatchObject({
      attempt: 1,
      message: 'charge failed',
      step: 'charge',
      stop: 'attempts-exhausted',
    });
    expect(String(line?.fields.stack)).toContain('Caused by: Error: upstream returned 500');
  });

  it('names no step for an error the body threw itself', async () => {
    const fake = new FakeJobDriver();
    const handle = failing(2, () => 'not an error at all');
    const row = fake.add({ name: handle.name });
    await runOne(fake, handle).result;
    expect(row.failures?.[0]).toMatchObject({
      name: 'NonError',
      message: 'not an error at all',
      step: null,
      stack: null,
    });
  });

  it("records the exception on the attempt's job span", async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    const fake = new FakeJobDriver();
    const handle = failing(3);
    fake.add({ name: handle.name });
    expect((await runOne(fake, handle).result).outcome).toBe('retried');
    const span = exporter.getFinishedSpans().find((each) => each.name === `job ${handle.name}`);
    const exception = span?.events.find((event) => event.name === 'exception');
    expect(exception?.attributes).toMatchObject({
      'exception.type': 'Error',
      'exception.message': 'upstream returned 500',
    });
    expect(String(exception?.attributes?.['exception.stacktrace'])).toMatch(
      /^Error: upstream returned 500\n/,
    );
    expect(span?.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(span?.attributes['x_jobs.failed_step']).toBe('charge');
  });
});
