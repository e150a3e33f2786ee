/** Severity of a scheduler log event. */
export type SchedulerLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Where the scheduler reports what happened: one call per event with a dotted name and plain fields. */
export interface SchedulerLogger {
  log(level: SchedulerLogLevel, event: string, fields?: Readonly<Record<string, unknown>>): void;
}
