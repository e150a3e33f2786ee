import { describe, expect, it } from 'vitest';
import { chooseBackend } from './backend-choice.js';
import { pickKind, precedenceNote } from './flag-precedence.js';

const PG = 'postgres://u:secret@h/db';

describe('an explicit flag wins over the environment', () => {
  it('--data-dir typed beats DATABASE_URL from the environment, and says so once', () => {
    const flags = { databaseUrl: PG, dataDir: 'db', fromEnv: ['databaseUrl'] };
    expect(chooseBackend(flags, '/app')).toEqual({ kind: 'pglite', dataDir: '/app/db' });
    const note = precedenceNote(flags, { DATABASE_URL: PG });
    expect(note).toBe(
      'x-jobs: --data-dir on the command line wins over DATABASE_URL set in the environment (using pglite).',
    );
    expect(note).not.toContain('secret');
  });

  it('--redis-url typed beats DATABASE_URL and X_JOBS_DRIVER from the environment', () => {
    const flags = {
      driver: 'pg',
      databaseUrl: PG,
      redisUrl: 'redis://h',
      fromEnv: ['driver', 'databaseUrl'],
    };
    expect(pickKind(flags)).toEqual({ kind: 'redis', by: 'redisUrl' });
    expect(precedenceNote(flags, { X_JOBS_DRIVER: 'pg', DATABASE_URL: PG })).toContain(
      'wins over X_JOBS_DRIVER, DATABASE_URL',
    );
  });

  it('--database-url typed replaces DATABASE_URL: the same setting, still said', () => {
    expect(precedenceNote({ databaseUrl: 'postgres://a/b' }, { DATABASE_URL: PG })).toContain(
      '--database-url on the command line wins over DATABASE_URL',
    );
  });

  it('is silent when nothing is overridden: env alone, or a flag the environment agrees with', () => {
    expect(
      precedenceNote({ databaseUrl: PG, fromEnv: ['databaseUrl'] }, { DATABASE_URL: PG }),
    ).toBeUndefined();
    expect(
      precedenceNote({ driver: 'pg', databaseUrl: PG, fromEnv: ['databaseUrl'] }, { DATABASE_URL: PG }),
    ).toBeUndefined();
    expect(precedenceNote({ dataDir: 'db' }, {})).toBeUndefined();
  });

  it('among environment variables the order is X_JOBS_DRIVER, DATABASE_URL, REDIS_URL, X_JOBS_DATA_DIR', () => {
    const all = ['driver', 'databaseUrl', 'redisUrl', 'dataDir'];
    expect(pickKind({ databaseUrl: PG, redisUrl: 'redis://h', dataDir: 'd', fromEnv: all }).kind).toBe('pg');
    expect(pickKind({ redisUrl: 'redis://h', dataDir: 'd', fromEnv: all }).kind).toBe('redis');
    expect(pickKind({}).kind).toBe('pglite');
  });
});
