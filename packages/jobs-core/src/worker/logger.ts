/** Severity of a structured log event. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Where the worker, executor and scheduler report what happened: one call per event, with a
 * stable dotted name (`jobs.lease.lost`) and plain fields. Plug in pino/winston by adapting this.
 */
export interface JobsLogger {
  log(level: LogLevel, event: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** JSON lines on stderr: `{"level":"warn","event":"jobs.heartbeat.failed","time":"…",…}`. */
export function jsonLinesLogger(
  options: { readonly minLevel?: LogLevel; readonly write?: (line: string) => void } = {},
): JobsLogger {
  const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
  const min = order[options.minLevel ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  return {
    log(level, event, fields = {}) {
      if (order[level] < min) return;
      write(JSON.stringify({ level, event, time: new Date().toISOString(), ...fields }));
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
