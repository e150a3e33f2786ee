import { describe, expect, it } from 'vitest';
import { isJobsError } from '../errors/jobs-error.js';
import { storableJsonForm } from './storable-value.js';
import { valueIssue } from './value-issue.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isJobsError(error) ? error.code : 'not-a-jobs-error';
  }
  return undefined;
}

describe('valueIssue', () => {
  it('admits what every driver stores exactly', () => {
    expect(
      valueIssue({
        s: 'x😀\ufffd',
        n: [0, -1.5, Number.MAX_SAFE_INTEGER, 5e-324],
        b: true,
        z: null,
        d: new Date(0),
        skipped: undefined,
        fn: () => 1,
      }),
    ).toBeUndefined();
  });
  it('names the path of a bad string, never the value', () => {
    expect(valueIssue({ items: [{ ok: 'a' }, { note: 'secret\ud800' }] })).toEqual({
      path: 'items.1.note',
      code: 'lone_surrogate',
    });
    expect(valueIssue('x\u0000')).toEqual({ path: '(root)', code: 'nul_character' });
  });
  it('names the object holding a bad key, not the key', () => {
    expect(valueIssue({ a: { 'k\udc00': 1 } })).toEqual({ path: 'a', code: 'key_lone_surrogate' });
    expect(valueIssue({ '\u0000': 1 })).toEqual({ path: '(root)', code: 'key_nul_character' });
  });
  it('refuses non-finite numbers, which JSON would turn into null', () => {
    expect(valueIssue({ a: [1, Number.NaN] })).toEqual({ path: 'a.1', code: 'not_finite' });
    expect(valueIssue({ a: Number.POSITIVE_INFINITY })).toEqual({ path: 'a', code: 'not_finite' });
  });
  it('refuses nesting past 64 levels and bigints', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    expect(valueIssue(deep)?.code).toBe('too_deep');
    expect(valueIssue({ n: 1n })).toEqual({ path: 'n', code: 'unserializable' });
  });
  it('follows toJSON as JSON.stringify does', () => {
    expect(valueIssue({ at: { toJSON: () => 'bad\ud800' } })).toEqual({ path: 'at', code: 'lone_surrogate' });
  });
});

describe('storableJsonForm', () => {
  it('answers the JSON form of a storable value', () => {
    expect(storableJsonForm({ a: new Date(0), b: undefined }, 'step x')).toEqual({
      a: '1970-01-01T00:00:00.000Z',
    });
    expect(storableJsonForm(undefined, 'result')).toBeNull();
  });
  it('is X_JOB_OUTPUT_UNSTORABLE for a rule broken, X_STEP_OUTPUT_UNSERIALIZABLE for a cycle', () => {
    expect(codeOf(() => storableJsonForm({ s: '\ud800' }, 'step x'))).toBe('X_JOB_OUTPUT_UNSTORABLE');
    expect(codeOf(() => storableJsonForm({ n: Number.NaN }, 'result'))).toBe('X_JOB_OUTPUT_UNSTORABLE');
    expect(codeOf(() => storableJsonForm('x'.repeat(100), 'progress', 10))).toBe('X_JOB_OUTPUT_UNSTORABLE');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(codeOf(() => storableJsonForm(cycle, 'step x'))).toBe('X_STEP_OUTPUT_UNSERIALIZABLE');
    expect(codeOf(() => storableJsonForm(1n, 'step x'))).toBe('X_STEP_OUTPUT_UNSERIALIZABLE');
  });
});
