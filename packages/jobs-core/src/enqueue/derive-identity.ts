import { coreError } from '../errors/core-error.js';
import { checkIdentityString } from '../values/identity-string.js';

/**
 * Calls a definition's derivation (`idempotencyKey(input)`, `tenant(input)`) and checks its
 * result: a non-empty string (`X_JOB_KEY_INVALID`), storable and at most `maxBytes` UTF-8 bytes
 * (`X_JOB_INPUT_INVALID` naming `field`).
 */
export function deriveIdentity(
  job: string,
  field: 'idempotencyKey' | 'tenant',
  maxBytes: number,
  fn: () => unknown,
): string {
  const value = fn();
  if (typeof value !== 'string' || value === '') {
    throw coreError(
      'X_JOB_KEY_INVALID',
      `${job}: ${field}(input) must return a non-empty string, got ${value === '' ? 'an empty string' : typeof value}.`,
      { job, field },
    );
  }
  return checkIdentityString(value, field, maxBytes, 'X_JOB_INPUT_INVALID', job);
}
