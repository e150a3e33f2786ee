import { JobsError } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { classifyRedisError } from './classify-error.js';

/** An Error shaped like the ones ioredis and node:net produce. */
function fake(message: string, fields: { name?: string; code?: string } = {}): Error {
  const error = new Error(message);
  if (fields.name !== undefined) error.name = fields.name;
  if (fields.code !== undefined) Object.assign(error, { code: fields.code });
  return error;
}

const codeOf = (error: unknown) => (error instanceof JobsError ? error.code : undefined);

/** The failures where the command provably never reached the server (`meta.maybeApplied: false`). */
const NEVER_SENT = new Set([
  'no offline queue while disconnected',
  'a refused socket',
  'an unknown host',
  'a server loading its data',
  'a replica promoted away',
  'a cluster that is down',
]);

describe('classifyRedisError', () => {
  it.each([
    [
      'no offline queue while disconnected',
      fake("Stream isn't writeable and enableOfflineQueue options is false"),
    ],
    ['a closed connection', fake('Connection is closed.')],
    [
      'a command lost with its connection',
      fake('Command aborted due to connection close', { name: 'AbortError' }),
    ],
    [
      'retries exhausted',
      fake('Reached the max retries per request limit (which is 0).', { name: 'MaxRetriesPerRequestError' }),
    ],
    ['a command deadline', fake('Command timed out')],
    ['a refused socket', fake('connect ECONNREFUSED 127.0.0.1:6390', { code: 'ECONNREFUSED' })],
    ['a reset socket', fake('read ECONNRESET', { code: 'ECONNRESET' })],
    ['an unknown host', fake('getaddrinfo ENOTFOUND redis', { code: 'ENOTFOUND' })],
    [
      'a server loading its data',
      fake('LOADING Redis is loading the dataset in memory', { name: 'ReplyError' }),
    ],
    [
      'a replica promoted away',
      fake("READONLY You can't write against a read only replica.", { name: 'ReplyError' }),
    ],
    ['a cluster that is down', fake('CLUSTERDOWN The cluster is down', { name: 'ReplyError' })],
    ['every cluster node failed', fake('Failed to refresh slots cache.', { name: 'ClusterAllFailedError' })],
  ])('%s is X_DRIVER_UNAVAILABLE, with the native error as cause', (title, error) => {
    const classified = classifyRedisError(error, 'enqueue');
    expect(codeOf(classified)).toBe('X_DRIVER_UNAVAILABLE');
    expect((classified as JobsError).cause).toBe(error);
    expect((classified as JobsError).meta).toEqual({
      operation: 'enqueue',
      maybeApplied: !NEVER_SENT.has(title),
    });
  });

  it('an OOM reply, bare or raised inside a script, is X_REDIS_OUT_OF_MEMORY', () => {
    for (const message of [
      "OOM command not allowed when used memory > 'maxmemory'.",
      "ERR Error running script (call to f_1): @user_script:9: OOM command not allowed when used memory > 'maxmemory'.",
    ]) {
      expect(codeOf(classifyRedisError(fake(message, { name: 'ReplyError' }), 'enqueue'))).toBe(
        'X_REDIS_OUT_OF_MEMORY',
      );
    }
  });

  it.each([
    ['with detail', 'XJ_DUPLICATE 3'],
    ["with Redis 7's ERR prefix", 'ERR XJ_DUPLICATE'],
  ])('a script status %s maps through the status table', (_, message) => {
    expect(codeOf(classifyRedisError(fake(message, { name: 'ReplyError' }), 'enqueue'))).toBe(
      'X_JOB_DUPLICATE',
    );
  });

  it('passes a server error reply, a JobsError and a non-error through unchanged', () => {
    const reply = fake('ERR Error running script (call to f_abc): @user_script:1: bad', {
      name: 'ReplyError',
    });
    const wrong = fake('WRONGTYPE Operation against a key holding the wrong kind of value', {
      name: 'ReplyError',
    });
    const jobs = new JobsError('X_DRIVER_CLOSED', 'closed');
    expect(classifyRedisError(reply, 'claim')).toBe(reply);
    expect(classifyRedisError(wrong, 'claim')).toBe(wrong);
    expect(classifyRedisError(jobs, 'claim')).toBe(jobs);
    expect(classifyRedisError('text', 'claim')).toBe('text');
  });
});
