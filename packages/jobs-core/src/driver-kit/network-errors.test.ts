import { describe, expect, it } from 'vitest';
import { isNetworkErrorCode, NETWORK_ERROR_CODES } from './network-errors.js';

describe('isNetworkErrorCode', () => {
  it('knows the socket errors of an unreachable or dropped server, and nothing else', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']) {
      expect(isNetworkErrorCode(code), code).toBe(true);
    }
    expect(NETWORK_ERROR_CODES.has('ERR_SOCKET_CLOSED')).toBe(true);
    expect(isNetworkErrorCode('ENOENT')).toBe(false);
    expect(isNetworkErrorCode('57P01')).toBe(false);
    expect(isNetworkErrorCode(undefined)).toBe(false);
    expect(isNetworkErrorCode(104)).toBe(false);
  });
});
