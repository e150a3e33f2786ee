import { type Context, context, isSpanContextValid, propagation, SpanKind, trace } from '@opentelemetry/api';
import { formatTraceparent } from '../telemetry/attempt-link.js';
import { sdkTracer } from '../telemetry/job-tracing.js';
import { type MessageFields, producerAttributes } from '../telemetry/messaging-attributes.js';

/**
 * The W3C `traceparent` of a context, or null when it holds no span. It asks the globally
 * registered propagator first (`propagation.inject`, what an app's SDK set up); when that writes
 * no `traceparent` (no SDK, or a non-W3C propagator) it formats the span context itself, so the
 * worker's span can still be the enqueuer's child.
 */
function traceparentOf(active: Context): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  if (typeof carrier.traceparent === 'string' && carrier.traceparent !== '') return carrier.traceparent;
  const span = trace.getSpanContext(active);
  if (span === undefined || !isSpanContextValid(span)) return null;
  return formatTraceparent(span);
}

/** The W3C `traceparent` of the active OpenTelemetry context, or null when no span is active. */
export function activeTraceparent(): string | null {
  return traceparentOf(context.active());
}

/**
 * The `traceparent` a new row carries. With a tracer provider registered it records the enqueue
 * as a PRODUCER span `send <queue>` (`messaging.operation.type` = `send`), a child of the active
 * span or a new trace's root, and returns that span's context: every attempt's span is its child,
 * so a run enqueued outside any span is still one trace. The span covers the request's
 * preparation and ends before the driver writes (a failed write is not on it). Without a provider
 * it starts no span and allocates nothing beyond {@link activeTraceparent}.
 */
export function enqueueTraceparent(message: MessageFields): string | null {
  const tracer = sdkTracer();
  if (tracer === undefined) return activeTraceparent();
  const active = context.active();
  const span = tracer.startSpan(
    `send ${message.queue}`,
    { kind: SpanKind.PRODUCER, attributes: producerAttributes(message) },
    active,
  );
  span.end();
  return traceparentOf(trace.setSpan(active, span));
}
