import { Cron } from 'croner';
import { schedulerError } from './errors.js';

/** A compiled cron pattern in one time zone: the occurrence arithmetic every other part uses. */
export interface CronSchedule {
  /** The pattern as declared. */
  readonly cron: string;
  /** The canonical IANA zone the pattern is read in. */
  readonly tz: string;
  /**
   * The first occurrence strictly after `afterMs` (epoch ms; occurrences fall on whole seconds),
   * or null when the pattern has no later match.
   */
  nextAfter(afterMs: number): number | null;
}

// A fixed reference for the "does it ever match" check, so declaration does not depend on the clock.
const MATCH_PROBE_FROM = new Date('2000-01-01T00:00:00Z');

/**
 * Compiles `cron` for the already-resolved zone `tz` with croner: five fields (minute precision)
 * or six (seconds first), plus croner's nicknames (`@daily`, `@hourly`, …). A malformed pattern,
 * a year field, or one that never matches (`0 0 30 2 *`) is `X_TASK_CRON_INVALID`.
 *
 * DST follows croner's rule: a pattern whose second, minute and hour are single values is
 * fixed-time — inside a spring-forward gap it moves to the first valid time after the gap, and a
 * wall time that occurs twice fires once (the first); any other pattern is an interval pattern —
 * it skips times in the gap and fires in both copies of a repeated hour (two distinct instants).
 */
export function compileCron(cron: unknown, tz: string): CronSchedule {
  if (typeof cron !== 'string' || cron.trim() === '') {
    throw schedulerError('X_TASK_CRON_INVALID', `cron: required, a pattern such as '0 3 * * *'.`, {
      field: 'cron',
    });
  }
  let pattern: Cron;
  try {
    pattern = new Cron(cron, { timezone: tz, paused: true, mode: '5-or-6-parts' });
  } catch (cause) {
    throw schedulerError(
      'X_TASK_CRON_INVALID',
      `cron: '${cron}' is not a valid pattern (${cause instanceof Error ? cause.message : String(cause)}).`,
      { field: 'cron', cron },
      cause,
    );
  }
  if (pattern.nextRun(MATCH_PROBE_FROM) === null) {
    throw schedulerError('X_TASK_CRON_INVALID', `cron: '${cron}' never matches a date.`, {
      field: 'cron',
      cron,
    });
  }
  return {
    cron,
    tz,
    nextAfter(afterMs) {
      return pattern.nextRun(new Date(afterMs))?.getTime() ?? null;
    },
  };
}
