import { isSpanContextValid, type Link, type Span, type SpanContext } from '@opentelemetry/api';
import type { JobDriver } from '../driver/job-driver.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The span context a W3C `traceparent` names, or undefined when it is not one. */
export function spanContextOf(traceparent: string): SpanContext | undefined {
  const parts = TRACEPARENT.exec(traceparent);
  if (parts === null) return undefined;
  const context = {
    traceId: parts[1]!,
    spanId: parts[2]!,
    traceFlags: Number.parseInt(parts[3]!, 16),
    isRemote: true,
  };
  return isSpanContextValid(context) ? context : undefined;
}

/** The W3C `traceparent` naming a span context. */
export function formatTraceparent({ traceId, spanId, traceFlags }: SpanContext): string {
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The W3C `traceparent` of a span. */
export function traceparentOfSpan(span: Span): string {
  return formatTraceparent(span.spanContext());
}

/**
 * The link from attempt N's job span to attempt N−1's: read off the row's `lastError`, which the
 * previous attempt stamped with its span's `traceparent` when it retried. None when that attempt
 * was not traced, recorded no error (its process died), or the row cannot be read (the attempt
 * runs untouched: a link is diagnostics). Costs one `introspect.get`, made only for a traced
 * attempt after the first.
 */
export async function previousAttemptLinks(driver: JobDriver, jobId: string): Promise<Link[] | undefined> {
  try {
    const traceparent = (await driver.introspect?.get(jobId))?.lastError?.traceparent;
    const context = traceparent === undefined ? undefined : spanContextOf(traceparent);
    return context === undefined
      ? undefined
      : [{ context, attributes: { 'x_jobs.link': 'previous-attempt' } }];
  } catch {
    return undefined;
  }
}
