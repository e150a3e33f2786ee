import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChurnMap } from './churn-map.js';

type Op =
  | { kind: 'set'; key: string; value: number }
  | { kind: 'delete'; key: string }
  | { kind: 'get'; key: string };

// Keys that a plain object would treat specially: its prototype's names, and array indices.
const key = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '0', '7', ''),
  fc.string(),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.record({ kind: fc.constant('get' as const), key }),
);

describe('ChurnMap', () => {
  it('answers what a Map would, for any sequence of writes, including keys an object treats specially', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const churn = new ChurnMap<{ value: number }>();
        const model = new Map<string, { value: number }>();
        for (const each of ops) {
          if (each.kind === 'set') {
            const boxed = { value: each.value };
            churn.set(each.key, boxed);
            model.set(each.key, boxed);
          } else if (each.kind === 'delete') {
            expect(churn.delete(each.key)).toBe(model.delete(each.key));
          } else {
            expect(churn.get(each.key)).toBe(model.get(each.key));
            expect(churn.has(each.key)).toBe(model.has(each.key));
          }
          expect(churn.size).toBe(model.size);
        }
        expect(churn.keys().sort()).toEqual([...model.keys()].sort());
        expect(new Set(churn.values())).toEqual(new Set(model.values()));
      }),
      { seed: 3, numRuns: 500 },
    );
  });

  it('keeps every entry across its moves to a fresh map (thousands of writes)', () => {
    const churn = new ChurnMap<{ value: number }>();
    const model = new Map<string, { value: number }>();
    for (let n = 0; n < 5_000; n += 1) {
      const boxed = { value: n };
      churn.set(`job-${n}`, boxed);
      model.set(`job-${n}`, boxed);
      if (n >= 10) {
        churn.delete(`job-${n - 10}`);
        model.delete(`job-${n - 10}`);
      }
    }
    expect(churn.size).toBe(10);
    expect(churn.keys()).toEqual([...model.keys()]);
    expect(churn.values()).toEqual([...model.values()]);
    expect(churn.get('job-4999')).toBe(model.get('job-4999'));
    expect(churn.has('job-4989')).toBe(false);
  });

  it('reads nothing from Object.prototype', () => {
    const churn = new ChurnMap<object>();
    churn.set('x', {});
    churn.delete('x');
    expect(churn.get('toString')).toBeUndefined();
    expect(churn.has('__proto__')).toBe(false);
    expect(churn.delete('constructor')).toBe(false);
    expect(churn.size).toBe(0);
  });
});
