import { describe, expect, it } from 'vitest';
import { toJsonForm } from './json-form.js';

describe('toJsonForm', () => {
  it('answers what JSON reads back, with undefined at the top as null', () => {
    expect(toJsonForm({ at: new Date(0), skip: undefined, fn: () => 1, list: [undefined, 1] })).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      list: [null, 1],
    });
    expect(toJsonForm(undefined)).toBeNull();
    expect(toJsonForm(new Map([[1, 2]]))).toEqual({});
  });

  it('throws for values JSON cannot hold', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => toJsonForm(10n)).toThrow(TypeError);
    expect(() => toJsonForm(cycle)).toThrow(TypeError);
  });
});
