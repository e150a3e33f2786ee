import { describe, expect, it } from 'vitest';
import { BinaryHeap } from './binary-heap.js';

interface Item {
  heapIndex: number;
  readonly key: number;
}

const item = (key: number): Item => ({ heapIndex: -1, key });
const byKey = () => new BinaryHeap<Item>((a, b) => a.key < b.key);
const drain = (heap: BinaryHeap<Item>) => {
  const keys: number[] = [];
  for (let next = heap.pop(); next !== undefined; next = heap.pop()) keys.push(next.key);
  return keys;
};

/** A small deterministic generator, so a failure reproduces. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

describe('BinaryHeap', () => {
  it('pops in order, with peek showing what comes next', () => {
    const heap = byKey();
    for (const key of [5, 1, 4, 1, 3]) heap.push(item(key));
    expect(heap.size).toBe(5);
    expect(heap.peek()?.key).toBe(1);
    expect(drain(heap)).toEqual([1, 1, 3, 4, 5]);
    expect(heap.pop()).toBeUndefined();
  });

  it('removes any held item and keeps the order of the rest', () => {
    const next = random(7);
    const heap = byKey();
    const items = Array.from({ length: 500 }, () => item(Math.floor(next() * 100)));
    for (const one of items) heap.push(one);
    const removed = items.filter(() => next() < 0.4);
    for (const one of removed) heap.remove(one);
    for (const one of removed) expect(one.heapIndex).toBe(-1);
    const kept = items.filter((one) => !removed.includes(one)).map((one) => one.key);
    expect(drain(heap)).toEqual(kept.sort((a, b) => a - b));
  });

  it('ignores remove of an item it does not hold', () => {
    const heap = byKey();
    const held = item(2);
    heap.push(held);
    const other = byKey();
    const stranger = item(1);
    other.push(stranger);
    heap.remove(stranger);
    heap.remove(item(3));
    expect(drain(heap)).toEqual([2]);
    expect(other.peek()).toBe(stranger);
  });
});
