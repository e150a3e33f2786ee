import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainlyStorable } from './plainly-storable.js';
import { valueIssue } from './value-issue.js';

const unit = fc.oneof(
  fc.constantFrom('\ud800', '\udfff', '\u0000', '\\', 'u', '😀', '\ufffd', 'a'),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 4, stringUnit: unit }),
  fc.dictionary(fc.string({ unit }), fc.oneof(fc.double(), fc.string({ unit }), fc.date()), { maxKeys: 4 }),
  fc.array(fc.oneof(fc.double(), fc.constant(undefined), fc.string({ unit })), { maxLength: 4 }),
);

describe('isPlainlyStorable', () => {
  it('never answers true for a value the precise walk refuses', () => {
    fc.assert(
      fc.property(value, (candidate) => {
        const text = JSON.stringify(candidate);
        if (text !== undefined && isPlainlyStorable(candidate, text)) {
          expect(valueIssue(candidate)).toBeUndefined();
        }
      }),
      { seed: 15, numRuns: 2_000 },
    );
  });
  it('answers true for ordinary payloads, so they skip the precise walk', () => {
    const ordinary = { n: 1, orgId: 'org-1', note: 'row 1 😀 "quoted"', tags: ['a', 'b'], at: null };
    expect(isPlainlyStorable(ordinary, JSON.stringify(ordinary))).toBe(true);
  });
  it('sends lone surrogates, U+0000, non-finite numbers and toJSON down the precise walk', () => {
    for (const doubtful of [{ s: '\ud800' }, { '\u0000': 1 }, { n: Number.NaN }, { d: new Date(0) }]) {
      expect(isPlainlyStorable(doubtful, JSON.stringify(doubtful))).toBe(false);
    }
  });
});
