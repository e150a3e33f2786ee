import { type Duration, parseDuration } from '@x/jobs-core';
import { consumerError } from './errors.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The cron pattern (read in UTC) that fires every `rearm`: `'30s'` → `'*\/30 * * * * *'`, `'1m'` →
 * `'* * * * *'`, `'15m'` → `'*\/15 * * * *'`, `'6h'` → `'0 *\/6 * * *'`, `'1d'` → `'0 0 * * *'`.
 * Only intervals a cron can hold evenly are accepted — seconds that divide a minute, minutes that
 * divide an hour, hours that divide a day, or one day — else `X_CONSUMER_INVALID` (`field: 'rearm'`).
 */
export function rearmCron(rearm: Duration): string {
  let ms: number;
  try {
    ms = parseDuration(rearm);
  } catch {
    throw rearmInvalid(rearm);
  }
  if (ms === DAY) return '0 0 * * *';
  if (ms < MINUTE) return evenly(ms, SECOND, 60, (n) => `${every(n)} * * * * *`, rearm);
  if (ms < HOUR) return evenly(ms, MINUTE, 60, (n) => `${every(n)} * * * *`, rearm);
  if (ms < DAY) return evenly(ms, HOUR, 24, (n) => `0 ${every(n)} * * *`, rearm);
  throw rearmInvalid(rearm);
}

function evenly(ms: number, unit: number, per: number, pattern: (n: number) => string, rearm: Duration) {
  const n = ms / unit;
  if (!Number.isInteger(n) || per % n !== 0) throw rearmInvalid(rearm);
  return pattern(n);
}

function every(n: number): string {
  return n === 1 ? '*' : `*/${n}`;
}

function rearmInvalid(rearm: unknown) {
  return consumerError(
    'X_CONSUMER_INVALID',
    `rearm: a duration a cron holds evenly ('30s', '1m', '15m', '1h', '1d'), got ${String(rearm)}.`,
    { field: 'rearm' },
  );
}
