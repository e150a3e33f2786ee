import { context, isSpanContextValid, propagation, trace } from '@opentelemetry/api';

/**
 * The W3C `traceparent` of the active OpenTelemetry context, or null when no span is active.
 * It asks the globally registered propagator first (`propagation.inject`, what an app's SDK set
 * up); when that writes no `traceparent` (no SDK, or a non-W3C propagator) it formats the active
 * span context itself, so the worker's span can still be the enqueuer's child.
 */
export function activeTraceparent(): string | null {
  const active = context.active();
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  if (typeof carrier.traceparent === 'string' && carrier.traceparent !== '') return carrier.traceparent;
  const span = trace.getSpanContext(active);
  if (span === undefined || !isSpanContextValid(span)) return null;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}
