import type { CoreErrorCode } from '../errors/codes.js';
import { coreError } from '../errors/core-error.js';
import { isJobsError } from '../errors/jobs-error.js';
import { parseDuration } from './duration.js';

/**
 * Parses a declared or optional duration field, re-coding a bad value as `code` (e.g.
 * `X_JOB_DECLARATION_INVALID`) with the field named, so the caller sees which surface refused it.
 * `maxMs` is the ceiling (Default: 100 years; {@link parseDuration}).
 */
export function durationField(value: unknown, field: string, code: CoreErrorCode, maxMs?: number): number {
  try {
    return parseDuration(value, field, maxMs);
  } catch (error) {
    if (isJobsError(error, 'X_DURATION_INVALID'))
      throw coreError(code, error.message, { ...error.meta, field }, error);
    throw error;
  }
}
