import { schedulerError } from './errors.js';

/**
 * Resolves `tz` against the runtime's IANA database and answers its canonical name
 * (`'europe/berlin'` → `'Europe/Berlin'`, `'Etc/UTC'` → `'UTC'`). Anything else — `'Bogota'`,
 * `'UTC+5'`, `''`, a non-string — is `X_TASK_TZ_INVALID`. `Intl.DateTimeFormat` is the check
 * (croner only validates a zone lazily, and `Intl.supportedValuesOf` omits `UTC`).
 */
export function resolveTimeZone(tz: unknown): string {
  if (typeof tz !== 'string' || tz.trim() === '') {
    throw schedulerError(
      'X_TASK_TZ_INVALID',
      `tz: required, an IANA time zone such as 'Europe/Berlin' or 'UTC' (got ${describeValue(tz)}).`,
      { field: 'tz' },
    );
  }
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch (cause) {
    throw schedulerError(
      'X_TASK_TZ_INVALID',
      `tz: '${tz}' is not an IANA time zone this runtime knows; write a zone such as 'America/Bogota' or 'UTC'.`,
      { field: 'tz', tz },
      cause,
    );
  }
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : typeof value;
}
