import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/** Severity of a structured log event. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Where the worker, executor and scheduler report what happened: one call per event, with a
 * stable dotted name (`jobs.lease.lost`) and plain fields. Plug in pino/winston by adapting this.
 */
export interface JobsLogger {
  log(level: LogLevel, event: string, fields?: Readonly<Record<string, unknown>>): void;
}

/**
 * JSON lines on stderr: `{"level":"warn","event":"jobs.heartbeat.failed","time":"…",…}`. A line
 * written while an OpenTelemetry span is active also carries its `trace_id` and `span_id` (hex),
 * so a log line joins its job's trace; the fields given win over them.
 */
export function jsonLinesLogger(
  options: { readonly minLevel?: LogLevel; readonly write?: (line: string) => void } = {},
): JobsLogger {
  const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
  const min = order[options.minLevel ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  return {
    log(level, event, fields = {}) {
      if (order[level] < min) return;
      const span = trace.getSpanContext(context.active());
      const time = new Date().toISOString();
      if (span === undefined || !isSpanContextValid(span)) {
        write(JSON.stringify({ level, event, time, ...fields }));
      } else {
        write(
          JSON.stringify({ level, event, time, trace_id: span.traceId, span_id: span.spanId, ...fields }),
        );
      }
    },
  };
}

/** A logger that drops everything (tests that assert on other things). */
export const silentLogger: JobsLogger = { log: () => undefined };

/** A logger that keeps every event in memory, for tests that assert a log happened. */
export function recordingLogger(): JobsLogger & {
  readonly events: { level: LogLevel; event: string; fields: Readonly<Record<string, unknown>> }[];
} {
  const events: { level: LogLevel; event: string; fields: Readonly<Record<string, unknown>> }[] = [];
  return {
    events,
    log(level, event, fields = {}) {
      events.push({ level, event, fields });
    },
  };
}
