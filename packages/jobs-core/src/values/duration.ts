import { coreError } from '../errors/core-error.js';
import { VALUE_LIMITS } from './value-limits.js';

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
 * Parses a duration into whole milliseconds, at least 1 and at most `maxMs` (Default: 100 years,
 * {@link VALUE_LIMITS.maxDurationMs}). Zero, negative, NaN, infinite and unparseable values
 * (`'3x'`), values that round to 0 (`'0.4ms'`) and values above `maxMs` throw
 * `X_DURATION_INVALID` naming `field`.
 */
export function parseDuration(
  value: unknown,
  field = 'duration',
  maxMs: number = VALUE_LIMITS.maxDurationMs,
): number {
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
  const rounded = Math.round(ms);
  if (!Number.isFinite(ms) || rounded < 1) {
    throw coreError(
      'X_DURATION_INVALID',
      `${field}: a duration must be a finite number of ms that rounds to at least 1 (got ${String(value)}).`,
      { field },
    );
  }
  if (rounded > maxMs) {
    throw coreError('X_DURATION_INVALID', `${field}: at most ${maxMs} ms (got ${String(value)}).`, {
      field,
      maxMs,
    });
  }
  return rounded;
}
