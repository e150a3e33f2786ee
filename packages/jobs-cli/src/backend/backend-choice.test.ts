import { describe, expect, it } from 'vitest';
import { chooseBackend, describeBackend, redactUrl } from './backend-choice.js';

describe('chooseBackend', () => {
  it('infers pg from a database URL, redis from a Redis URL, else pglite in ./.x-jobs', () => {
    expect(chooseBackend({ databaseUrl: 'postgres://u@h/db', redisUrl: 'redis://h' }, '/app')).toEqual({
      kind: 'pg',
      url: 'postgres://u@h/db',
    });
    expect(chooseBackend({ redisUrl: 'redis://h:6379', prefix: 'p' }, '/app')).toEqual({
      kind: 'redis',
      url: 'redis://h:6379',
      prefix: 'p',
    });
    expect(chooseBackend({}, '/app')).toEqual({ kind: 'pglite', dataDir: '/app/.x-jobs' });
    expect(chooseBackend({ driver: 'pglite', dataDir: 'db', schema: 'jobs' }, '/app')).toEqual({
      kind: 'pglite',
      dataDir: '/app/db',
      schema: 'jobs',
    });
    expect(chooseBackend({ driver: 'memory', databaseUrl: 'postgres://h/db' }, '/app')).toEqual({
      kind: 'memory',
    });
  });

  it('refuses a driver without its URL, a malformed URL and an unsafe schema as usage errors', () => {
    expect(() => chooseBackend({ driver: 'pg' }, '/app')).toThrow(
      expect.objectContaining({ code: 'X_CLI_USAGE' }),
    );
    expect(() => chooseBackend({ driver: 'redis' }, '/app')).toThrow(
      expect.objectContaining({ code: 'X_CLI_USAGE' }),
    );
    expect(() => chooseBackend({ databaseUrl: 'mysql://h/db' }, '/app')).toThrow(
      expect.objectContaining({ code: 'X_CLI_USAGE' }),
    );
    expect(() => chooseBackend({ schema: 'x; drop table' }, '/app')).toThrow(
      expect.objectContaining({ code: 'X_CLI_USAGE' }),
    );
  });

  it('never prints a password', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/app')).toBe('postgres://app:***@db:5432/app');
    expect(
      describeBackend({ kind: 'pg', url: 'postgres://app:s3cret@db/app', schema: 's' }, '/'),
    ).not.toContain('s3cret');
  });
});
