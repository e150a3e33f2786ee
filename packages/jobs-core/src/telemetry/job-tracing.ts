import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/** The tracer name every @x/jobs span is created under. */
export const TRACER_NAME = '@x/jobs-core';

/** The context a job's span is a child of: the enqueuer's span when the row carries its traceparent. */
export function contextFromTraceparent(traceparent: string | null): Context {
  if (traceparent === null) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** Starts a span and runs `fn` inside it; the span ends when `fn` settles and records a thrown error. */
export async function inSpan<T>(
  name: string,
  parent: Context,
  attributes: Record<string, string | number | boolean>,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  const tracer = trace.getTracer(TRACER_NAME);
  const span = tracer.startSpan(name, { kind, attributes }, parent);
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
