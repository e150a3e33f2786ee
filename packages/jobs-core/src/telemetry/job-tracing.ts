import {
  type Context,
  context,
  type Link,
  ProxyTracerProvider,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { CORE_VERSION } from './version.js';

/** The tracer name every @x/jobs span is created under. */
export const TRACER_NAME = '@x/jobs-core';

/** The context a job's span is a child of: the enqueuer's span when the row carries its traceparent. */
export function contextFromTraceparent(traceparent: string | null): Context {
  if (traceparent === null) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

let cachedDelegate: unknown;
let cachedTracer: Tracer | undefined;

/**
 * The @x/jobs tracer of the installed SDK, or undefined when no tracer provider is registered
 * (looked up again only when the registered provider changes).
 */
export function sdkTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  const proxy = provider instanceof ProxyTracerProvider ? provider : undefined;
  const delegate = proxy === undefined ? provider : proxy.getDelegate();
  if (delegate !== cachedDelegate) {
    cachedDelegate = delegate;
    cachedTracer =
      proxy?.getDelegateTracer(TRACER_NAME, CORE_VERSION) ??
      (proxy === undefined ? provider.getTracer(TRACER_NAME, CORE_VERSION) : undefined);
  }
  return cachedTracer;
}

/**
 * Starts a span and runs `fn` inside it; the span ends when `fn` settles and records a thrown error.
 *
 * With no tracer provider registered and no parent span (no traceparent came with the job) there
 * is nothing to record or carry, so `fn` runs directly with no span: untraced jobs pay one lookup.
 * `attributes` is called only when a span is started (at its start, where samplers see them);
 * `links` are set at the start too.
 */
export function inSpan<T>(
  name: string,
  parent: Context,
  attributes: () => Record<string, string | number | boolean>,
  fn: (span: Span | undefined) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
  links?: Link[],
): Promise<T> {
  const tracer = sdkTracer();
  if (tracer === undefined && trace.getSpan(parent) === undefined) return fn(undefined);
  const span = (tracer ?? trace.getTracer(TRACER_NAME, CORE_VERSION)).startSpan(
    name,
    links === undefined ? { kind, attributes: attributes() } : { kind, attributes: attributes(), links },
    parent,
  );
  return runInSpan(span, parent, fn);
}

async function runInSpan<T>(span: Span, parent: Context, fn: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    recordSpanError(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span failed with the error's code and message. */
function recordSpanError(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  const code =
    error !== null && typeof error === 'object' && 'code' in error
      ? String((error as { code: unknown }).code)
      : 'ERROR';
  span.setAttribute('x_jobs.error_code', code);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}
