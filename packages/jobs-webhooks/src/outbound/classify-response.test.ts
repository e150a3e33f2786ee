import { describe, expect, it } from 'vitest';
import { classifyResponse } from './classify-response.js';
import { parseRetryAfter } from './retry-after.js';

const NOW = Date.parse('2026-12-01T12:00:00Z');

describe('classifyResponse', () => {
  it.each([
    [200, null, { status: 'delivered' }],
    [204, null, { status: 'delivered' }],
    [410, null, { status: 'gone' }],
    [429, '7', { status: 'throttled', retryAfterSeconds: 7 }],
    [429, null, { status: 'throttled', retryAfterSeconds: undefined }],
    [503, '30', { status: 'throttled', retryAfterSeconds: 30 }],
    [503, null, { status: 'failed' }],
    [500, null, { status: 'failed' }],
    [502, null, { status: 'failed' }],
    [408, null, { status: 'failed' }],
    [425, null, { status: 'failed' }],
    [400, null, { status: 'rejected' }],
    [401, null, { status: 'rejected' }],
    [404, null, { status: 'rejected' }],
    [301, null, { status: 'rejected' }],
    [307, null, { status: 'rejected' }],
  ] as const)('%i (Retry-After %s) is %o', (code, retryAfter, verdict) => {
    expect(classifyResponse(code, retryAfter, NOW)).toEqual(verdict);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, never negative, and nothing else', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('Tue, 01 Dec 2026 12:01:30 GMT', NOW)).toBe(90);
    expect(parseRetryAfter('Tue, 01 Dec 2026 11:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-5', NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });
});
