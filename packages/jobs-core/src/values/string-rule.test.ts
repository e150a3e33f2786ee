import { describe, expect, it } from 'vitest';
import { exceedsUtf8Bytes, storableText, stringIssue } from './string-rule.js';

describe('stringIssue', () => {
  it('admits well-formed strings, astral characters and U+FFFD included', () => {
    for (const ok of ['', 'plain', 'emoji 😀', '\ufffd', 'rtl \u202eabc', 'quote "\\\'', 'a\u0001b']) {
      expect(stringIssue(ok), JSON.stringify(ok)).toBeUndefined();
    }
  });
  it('refuses lone surrogates, high or low, anywhere', () => {
    for (const bad of ['\ud800', 'order-\udbff', '\udc00x', 'x😀\ud83d']) {
      expect(stringIssue(bad)).toBe('lone_surrogate');
    }
  });
  it('refuses U+0000', () => {
    expect(stringIssue('a\u0000b')).toBe('nul_character');
  });
});

describe('storableText', () => {
  it('replaces lone surrogates and U+0000 with U+FFFD and keeps the rest', () => {
    expect(storableText('a\ud800b\u0000c😀')).toBe('a\ufffdb\ufffdc😀');
    const ok = 'nothing to do';
    expect(storableText(ok)).toBe(ok);
    expect(stringIssue(storableText('\udfff\u0000'))).toBeUndefined();
  });
});

describe('exceedsUtf8Bytes', () => {
  it('measures UTF-8 bytes, not UTF-16 units', () => {
    expect(exceedsUtf8Bytes('a'.repeat(255), 255)).toBe(false);
    expect(exceedsUtf8Bytes('a'.repeat(256), 255)).toBe(true);
    expect(exceedsUtf8Bytes('é'.repeat(127), 255)).toBe(false);
    expect(exceedsUtf8Bytes('é'.repeat(128), 255)).toBe(true);
    expect(exceedsUtf8Bytes('€'.repeat(85), 255)).toBe(false);
    expect(exceedsUtf8Bytes('€'.repeat(86), 255)).toBe(true);
    expect(exceedsUtf8Bytes('😀'.repeat(63), 255)).toBe(false);
    expect(exceedsUtf8Bytes('😀'.repeat(64), 255)).toBe(true);
  });
});
