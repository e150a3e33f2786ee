import type { CoreErrorCode } from '../errors/codes.js';
import { coreError } from '../errors/core-error.js';
import { boundedInteger } from './bounded-integer.js';
import { durationField } from './duration-field.js';
import { checkIdentityString } from './identity-string.js';
import { checkKnownKeys } from './known-keys.js';
import { VALUE_LIMITS } from './value-limits.js';

/** A validated `rateLimit`, `per` resolved to ms: what the executor reads. */
export interface ResolvedRateLimit {
  /** A fixed key, or the function deriving one from the input; absent: one budget for the job. */
  readonly key?: string | ((input: unknown) => string);
  /** Grants allowed in any window of `perMs` across every worker. */
  readonly limit: number;
  /** The sliding window, in whole ms. */
  readonly perMs: number;
}

/** The keys of `rateLimit`. */
const RATE_LIMIT_KEYS: ReadonlySet<string> = new Set(['key', 'limit', 'per']);

/**
 * Validates a declared `rateLimit` (`{ key?, limit, per }`) and resolves `per` to whole ms. Every
 * refusal is `X_JOB_DECLARATION_INVALID` naming the field: `limit` an integer from 1 to
 * {@link VALUE_LIMITS.maxRateLimit}; `per` a duration (`'1m'`, `60_000`) up to 100 years; `key`
 * a function of the input or a non-empty storable string of at most
 * {@link VALUE_LIMITS.rateLimitKeyBytes} UTF-8 bytes.
 */
export function resolveRateLimit(value: unknown): ResolvedRateLimit | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object') {
    throw declarationInvalid(
      'rateLimit',
      "rateLimit: expected { limit, per, key? }, e.g. { limit: 100, per: '1m' }.",
    );
  }
  checkKnownKeys(value, RATE_LIMIT_KEYS, 'rateLimit', 'X_JOB_DECLARATION_INVALID');
  const { key, limit, per } = value as Record<string, unknown>;
  boundedInteger(limit, 'rateLimit.limit', 1, VALUE_LIMITS.maxRateLimit, 'X_JOB_DECLARATION_INVALID');
  if (per === undefined)
    throw declarationInvalid('rateLimit.per', "rateLimit.per: required, a duration such as '1m'.");
  const perMs = durationField(per, 'rateLimit.per', 'X_JOB_DECLARATION_INVALID');
  if (key !== undefined && typeof key !== 'function') {
    if (typeof key !== 'string')
      throw declarationInvalid(
        'rateLimit.key',
        'rateLimit.key: must be a string or a function of the input returning one.',
      );
    checkRateLimitKey(key, 'X_JOB_DECLARATION_INVALID');
  }
  return Object.freeze({
    limit: limit as number,
    perMs,
    ...(key === undefined ? {} : { key: key as NonNullable<ResolvedRateLimit['key']> }),
  });
}

/**
 * The bucket a run of job `name` takes from: `key:<key>` for a declared or derived key (so jobs
 * naming one key share one budget: two jobs calling one partner API), else `job:<name>`. A
 * `key(input)` answering anything but a non-empty storable string of at most
 * {@link VALUE_LIMITS.rateLimitKeyBytes} bytes throws `X_JOB_KEY_INVALID` (terminal).
 */
export function rateLimitBucket(rateLimit: ResolvedRateLimit, name: string, input: unknown): string {
  const { key } = rateLimit;
  if (key === undefined) return `job:${name}`;
  if (typeof key === 'string') return `key:${key}`;
  const part = key(input);
  if (typeof part !== 'string') {
    throw coreError(
      'X_JOB_KEY_INVALID',
      `${name}: rateLimit.key(input) must return a string, got ${typeof part}.`,
      {
        job: name,
        field: 'rateLimit.key',
      },
    );
  }
  return `key:${checkRateLimitKey(part, 'X_JOB_KEY_INVALID', name)}`;
}

/** A rate-limit key: non-empty, storable, at most {@link VALUE_LIMITS.rateLimitKeyBytes} bytes. */
function checkRateLimitKey(key: string, code: CoreErrorCode, job?: string): string {
  if (key === '') {
    const prefix = job === undefined ? '' : `${job}: `;
    throw coreError(code, `${prefix}rateLimit.key must not be empty.`, {
      ...(job === undefined ? {} : { job }),
      field: 'rateLimit.key',
    });
  }
  return checkIdentityString(key, 'rateLimit.key', VALUE_LIMITS.rateLimitKeyBytes, code, job);
}

function declarationInvalid(field: string, message: string) {
  return coreError('X_JOB_DECLARATION_INVALID', message, { field });
}
