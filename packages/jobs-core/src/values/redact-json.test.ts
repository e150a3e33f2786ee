import { describe, expect, it } from 'vitest';
import { REDACTED, redactJson } from './redact-json.js';

describe('redactJson', () => {
  it('masks the values of sensitive keys at any depth, in any spelling', () => {
    const input = {
      email: 'a@example.com',
      password: 'hunter2',
      api_key: 'k1',
      'X-Api-Key': 'k2',
      nested: { accessToken: 't', clientSecret: 's', plain: 1 },
      list: [{ Authorization: 'Bearer x', id: 7 }],
    };
    expect(redactJson(input)).toEqual({
      email: 'a@example.com',
      password: REDACTED,
      api_key: REDACTED,
      'X-Api-Key': REDACTED,
      nested: { accessToken: REDACTED, clientSecret: REDACTED, plain: 1 },
      list: [{ Authorization: REDACTED, id: 7 }],
    });
  });

  it('masks a whole object under a sensitive key, and leaves scalars and the original alone', () => {
    const input = { credentials: { user: 'u', pass: 'p' }, n: 3 };
    expect(redactJson(input)).toEqual({ credentials: REDACTED, n: 3 });
    expect(input.credentials.user).toBe('u');
    expect(redactJson('token')).toBe('token');
    expect(redactJson(null)).toBeNull();
  });

  it('adds extra keys, matched the same way', () => {
    expect(redactJson({ ssnLast4: '1234', iban: 'DE00', ibanCountry: 'DE' }, ['IBAN'])).toEqual({
      ssnLast4: REDACTED,
      iban: REDACTED,
      ibanCountry: REDACTED,
    });
  });
});
