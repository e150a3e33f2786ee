import { formatDuration } from './format-duration.js';

/** An epoch-ms instant as ISO-8601 UTC to the second: `2026-11-29T08:00:00Z`. */
export function formatInstant(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An instant relative to `now`: `12s ago`, `in 3m 4s`, `now`. */
export function formatRelative(epochMs: number, now: number): string {
  const delta = epochMs - now;
  if (Math.abs(delta) < 1000) return 'now';
  return delta > 0 ? `in ${formatDuration(delta)}` : `${formatDuration(delta)} ago`;
}

/** An instant as `ISO (relative)`, or `—` for null. */
export function formatWhen(epochMs: number | null, now: number): string {
  return epochMs === null ? '—' : `${formatInstant(epochMs)} (${formatRelative(epochMs, now)})`;
}

/**
 * An instant as wall-clock time in an IANA zone with its offset: `2026-11-30 03:00 GMT-5`.
 * What `x-jobs tasks` prints and the dashboard's cron page shows, so a cron line reads in the
 * zone it was declared in.
 */
export function formatInZone(epochMs: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  }).formatToParts(new Date(epochMs));
  const get = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
}
