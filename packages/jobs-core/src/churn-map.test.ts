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

  it('reads nothing from Object.prototype', () => {
    const churn = new ChurnMap<object>();
    expect(churn.get('toString')).toBeUndefined();
    expect(churn.has('__proto__')).toBe(false);
    expect(churn.delete('constructor')).toBe(false);
    expect(churn.size).toBe(0);
  });
});
