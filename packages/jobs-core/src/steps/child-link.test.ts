import { describe, expect, it } from 'vitest';
import { CHILD_KEY_PREFIX, childEvent, childKey, parentRunOf } from './child-link.js';

describe('child keys', () => {
  it('name the parent run, whatever it contains, and differ per step and invocation', () => {
    for (const runId of ['run-1', 'a:b:c', '100% done', 'ünï/cödé']) {
      const key = childKey(runId, 'charge:card', 0);
      expect(key.startsWith(CHILD_KEY_PREFIX)).toBe(true);
      expect(parentRunOf(key)).toBe(runId);
    }
    expect(childKey('r', 'a', 0)).not.toBe(childKey('r', 'a', 1));
    expect(childKey('r', 'a', 0)).not.toBe(childKey('r', 'b', 0));
    expect(childKey('r', 'a', 0)).toBe(childKey('r', 'a', 0));
  });

  it('stay within the idempotency key limit for the longest run id', () => {
    const runId = '\u{1F600}'.repeat(63); // 252 UTF-8 bytes, each one encoded to 12 characters
    expect(Buffer.byteLength(childKey(runId, 'x'.repeat(5_000), 999))).toBeLessThanOrEqual(1_024);
  });

  it('answer no parent for any other key', () => {
    expect(parentRunOf('onboard:org-1')).toBeUndefined();
    expect(parentRunOf(`${CHILD_KEY_PREFIX}no-colon`)).toBeUndefined();
    expect(parentRunOf(`${CHILD_KEY_PREFIX}%E0%A4%A:abc`)).toBeUndefined();
    expect(childEvent('r')).toBe(`${CHILD_KEY_PREFIX}r`);
  });
});
