import { coreError } from './errors/core-error.js';

/** A duration: milliseconds, or a string such as `'500ms'`, `'10s'`, `'5m'`, `'2h'`, `'3d'`. */
export type Duration = number | `${number}${DurationUnit}`;

/** The units a duration string may end with. */
export type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd';

const UNIT_MS: Readonly<Record<DurationUnit, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const PATTERN = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/**
 * Parses a duration into positive milliseconds. Zero, negative, NaN, infinite and unparseable
 * values (`'3x'`) throw `X_DURATION_INVALID` naming `field`.
 */
export function parseDuration(value: unknown, field = 'duration'): number {
  let ms: number;
  if (typeof value === 'number') {
    ms = value;
  } else if (typeof value === 'string') {
    const match = PATTERN.exec(value.trim());
    if (match === null) {
      throw coreError(
        'X_DURATION_INVALID',
        `${field}: '${value}' is not a duration; write milliseconds or a number with ms, s, m, h or d ('500ms', '10s', '3d').`,
        { field },
      );
    }
    ms = Number(match[1]) * UNIT_MS[match[2] as DurationUnit];
  } else {
    throw coreError('X_DURATION_INVALID', `${field}: expected a duration, got ${typeof value}.`, { field });
  }
  if (!Number.isFinite(ms) || ms <= 0) {
    throw coreError(
      'X_DURATION_INVALID',
      `${field}: a duration must be a positive, finite number of ms (got ${String(value)}).`,
      {
        field,
      },
    );
  }
  return Math.round(ms);
}
