import { describe, expect, it } from 'vitest';
import { ClaimLine } from './claim-line.js';

interface Item {
  heapIndex: number;
  readonly key: number;
  readonly id: number;
}

/** Strict order: key, then id (ids are unique), like the claim index's orders. */
const before = (a: Item, b: Item) => (a.key !== b.key ? a.key < b.key : a.id < b.id);

/** A small deterministic generator, so a failure reproduces. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

describe('ClaimLine', () => {
  it('answers what a sorted list would through random pushes (mostly in order), pops and removals', () => {
    const next = random(7);
    const line = new ClaimLine<Item>(before);
    /** The items in order, kept sorted by insertion. */
    const model: Item[] = [];
    const insert = (item: Item) => {
      let low = 0;
      let high = model.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (before(model[middle]!, item)) low = middle + 1;
        else high = middle;
      }
      model.splice(low, 0, item);
    };
    let id = 0;
    let key = 0;
    for (let step = 0; step < 6_000; step += 1) {
      const roll = next();
      if (roll < 0.45) {
        // Mostly in order (a rising key), sometimes early (an out-of-order arrival).
        key += next() < 0.8 ? 1 : 0;
        const item = { heapIndex: -1, key: next() < 0.85 ? key : key - Math.floor(next() * 50), id: id++ };
        line.push(item);
        insert(item);
      } else if (roll < 0.8) {
        expect(line.peek()).toBe(model[0]);
        expect(line.pop()).toBe(model.shift());
      } else if (model.length > 0) {
        const victim = model.splice(Math.floor(next() * model.length), 1)[0]!;
        line.remove(victim);
        line.remove(victim); // a second removal is a no-op
      }
      expect(line.size).toBe(model.length);
    }
    expect(new Set(line.values())).toEqual(new Set(model));
    for (const item of [...model]) expect(line.pop()).toBe(item);
    expect(line.pop()).toBeUndefined();
    expect(line.size).toBe(0);
  }, 120_000);

  it('keeps in-order arrivals in its run across a long drain (positions stay right after compaction)', () => {
    const line = new ClaimLine<Item>(before);
    const items = Array.from({ length: 5_000 }, (_, index) => ({ heapIndex: -1, key: index, id: index }));
    for (const item of items) line.push(item);
    for (let index = 0; index < 3_000; index += 1) expect(line.pop()).toBe(items[index]);
    line.remove(items[4_000]!);
    expect(line.size).toBe(1_999);
    expect([...line.values()]).not.toContain(items[4_000]);
    expect(line.pop()).toBe(items[3_000]);
  });
});
