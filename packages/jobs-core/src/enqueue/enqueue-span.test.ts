import {
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  SpanKind,
  trace,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { job } from '../declare/job.js';
import { CORE_VERSION } from '../telemetry/version.js';
import { prepareEnqueue } from './prepare-enqueue.js';

const ping = job({
  name: 'enqueue-span.ping',
  input: z.object({ n: z.number() }),
  idempotencyKey: ({ n }) => `ping:${n}`,
  tenant: 'none',
  queue: 'enqueue-span-q',
  async run() {},
});

/** A synchronous context manager: enough for `context.with` around a synchronous enqueue. */
class StackContextManager implements ContextManager {
  #stack: Context[] = [];
  active(): Context {
    return this.#stack.at(-1) ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.#stack.push(ctx);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.#stack.pop();
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#stack = [];
    return this;
  }
}

function registerProvider(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  context.setGlobalContextManager(new StackContextManager());
  return exporter;
}

afterEach(() => {
  trace.disable();
  context.disable();
});

describe('enqueue PRODUCER span', () => {
  it('starts no span and stamps nothing with no tracer provider registered', () => {
    expect(prepareEnqueue(ping, { n: 1 }).traceparent).toBeNull();
  });

  it('roots a new trace at `send <queue>` outside any span, and the row carries its context', () => {
    const exporter = registerProvider();
    const request = prepareEnqueue(ping, { n: 2 });
    const [span] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(span?.name).toBe('send enqueue-span-q');
    expect(span?.kind).toBe(SpanKind.PRODUCER);
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.instrumentationScope).toMatchObject({ name: '@x/jobs-core', version: CORE_VERSION });
    expect(request.traceparent).toBe(`00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`);
    expect(span?.attributes).toEqual({
      'messaging.system': 'x-jobs',
      'messaging.destination.name': 'enqueue-span-q',
      'messaging.operation.type': 'send',
      'messaging.operation.name': 'enqueue',
      'messaging.message.id': request.id,
      'x_jobs.job.id': request.id,
      'x_jobs.job.name': 'enqueue-span.ping',
      'x_jobs.queue': 'enqueue-span-q',
      'x_jobs.run_id': request.runId,
    });
  });

  it('is a child of the active span when the enqueue happens inside one', () => {
    const exporter = registerProvider();
    const outer = trace.getTracer('enqueue-span-test').startSpan('POST /ping');
    const request = context.with(trace.setSpan(context.active(), outer), () =>
      prepareEnqueue(ping, { n: 3 }),
    );
    outer.end();
    const producer = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.PRODUCER);
    expect(producer?.spanContext().traceId).toBe(outer.spanContext().traceId);
    expect(producer?.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(request.traceparent).toContain(producer?.spanContext().spanId);
  });
});
