import { describe, expect, it } from 'vitest';
import { redactText } from './redact-text.js';

describe('redactText', () => {
  it('masks the value after a sensitive key in the usual spellings, and nothing else', () => {
    expect(redactText('Error: token: abc123 user: bob')).toBe('Error: token: [redacted] user: bob');
    expect(redactText(`{"password":"p w","id":7} {'clientSecret': 's'}`)).toBe(
      `{"password":"[redacted]","id":7} {'clientSecret': '[redacted]'}`,
    );
    expect(redactText('headers: {authorization: Bearer abc.def, accept: json}')).toBe(
      'headers: {authorization: [redacted], accept: json}',
    );
    expect(redactText('upstream returned 500')).toBe('upstream returned 500');
  });

  it('masks the password of a URL, and is idempotent', () => {
    const once = redactText('connect redis://default:pa55@cache:6379 failed, api_key=k');
    expect(once).toBe('connect redis://default:[redacted]@cache:6379 failed, api_key=[redacted]');
    expect(redactText(once)).toBe(once);
  });

  it('adds extra keys, matched like the input rules', () => {
    expect(redactText('IBAN=DE00 ibanCountry=DE', ['iban'])).toBe('IBAN=[redacted] ibanCountry=[redacted]');
  });
});
