import { JobsError } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { classifyPgError } from './classify-pg-error.js';

/** A stand-in for what node-postgres throws: an Error with a SQLSTATE `code`. */
function pgFailure(
  code: string | undefined,
  message = 'failure',
  extra: Record<string, unknown> = {},
): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code }, extra);
}

describe('classifyPgError', () => {
  it.each([
    ['08006 connection failure', pgFailure('08006')],
    ['08001 cannot establish', pgFailure('08001')],
    ['57P01 admin shutdown (pg_terminate_backend)', pgFailure('57P01')],
    ['57P03 cannot connect now', pgFailure('57P03')],
    ['57014 statement timeout', pgFailure('57014')],
    ['53300 too many connections', pgFailure('53300')],
    ['ECONNREFUSED', pgFailure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['ECONNRESET', pgFailure('ECONNRESET', 'read ECONNRESET')],
    ['a dropped connection without a code', pgFailure(undefined, 'Connection terminated unexpectedly')],
    ['a pool checkout timeout', pgFailure(undefined, 'timeout exceeded when trying to connect')],
  ])('%s is X_DRIVER_UNAVAILABLE and retryable', (_label, error) => {
    const coded = classifyPgError(error);
    expect(coded.code).toBe('X_DRIVER_UNAVAILABLE');
    expect(coded.meta.retryable).toBe(true);
    expect(coded.cause).toBe(error);
  });

  it.each([
    [
      '3D000 no such database',
      pgFailure('3D000', 'database "nope" does not exist'),
      'X_DRIVER_DATABASE_MISSING',
    ],
    ['28P01 wrong password', pgFailure('28P01', 'password authentication failed'), 'X_DRIVER_AUTH_FAILED'],
    [
      '28000 unknown role / pg_hba refusal',
      pgFailure('28000', 'role "x" does not exist'),
      'X_DRIVER_AUTH_FAILED',
    ],
    ['ENOTFOUND', pgFailure('ENOTFOUND', 'getaddrinfo ENOTFOUND db.invalid'), 'X_DRIVER_HOST_UNKNOWN'],
    ['ERR_INVALID_URL', pgFailure('ERR_INVALID_URL', 'Invalid URL'), 'X_DRIVER_URL_INVALID'],
  ])('%s is a configuration error, not retryable, naming the setting', (_label, error, code) => {
    const coded = classifyPgError(error);
    expect(coded.code).toBe(code);
    expect(coded.meta).toMatchObject({ retryable: false, setting: 'connectionString' });
    expect(coded.cause).toBe(error);
  });

  it('EAI_AGAIN (a resolver that did not answer) stays an outage', () => {
    expect(classifyPgError(pgFailure('EAI_AGAIN', 'getaddrinfo EAI_AGAIN db')).code).toBe(
      'X_DRIVER_UNAVAILABLE',
    );
  });

  it.each(['40001', '40P01'])('%s is X_PG_TRANSACTION_CONFLICT and retryable', (sqlstate) => {
    const coded = classifyPgError(pgFailure(sqlstate));
    expect(coded.code).toBe('X_PG_TRANSACTION_CONFLICT');
    expect(coded.meta).toMatchObject({ retryable: true, sqlstate });
  });

  it('23505 is X_JOB_DUPLICATE with the constraint named', () => {
    const coded = classifyPgError(pgFailure('23505', 'duplicate key', { constraint: 'jobs_live_key_idx' }));
    expect(coded.code).toBe('X_JOB_DUPLICATE');
    expect(coded.meta).toMatchObject({
      retryable: false,
      sqlstate: '23505',
      constraint: 'jobs_live_key_idx',
    });
  });

  it.each(['42P01', '3F000'])('%s (missing table or schema) is X_PG_SCHEMA_MISSING', (sqlstate) => {
    expect(classifyPgError(pgFailure(sqlstate)).code).toBe('X_PG_SCHEMA_MISSING');
  });

  it.each([
    ['a syntax error', pgFailure('42601')],
    ['a check violation', pgFailure('23514')],
    ['a plain Error', new Error('boom')],
    ['a thrown string', 'boom'],
    ['undefined', undefined],
  ])('%s is X_PG_QUERY_FAILED and not retryable', (_label, error) => {
    const coded = classifyPgError(error);
    expect(coded.code).toBe('X_PG_QUERY_FAILED');
    expect(coded.meta.retryable).toBe(false);
  });

  it('keeps a JobsError as it is', () => {
    const original = new JobsError('X_DRIVER_CLOSED', 'closed');
    expect(classifyPgError(original)).toBe(original);
  });
});
