import { describe, expect, it } from 'vitest';
import { MicroBatch } from './micro-batch.js';

describe('MicroBatch', () => {
  it('sends the calls of one turn as one batch and answers each in order', async () => {
    const batches: number[][] = [];
    const batch = new MicroBatch<number, number>(async (items) => {
      batches.push([...items]);
      return items.map((item) => item * 10);
    });
    const answers = await Promise.all([batch.push(1), batch.push(2), batch.push(3)]);
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await batch.push(4)).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('splits a turn into batches of at most maxBatch', async () => {
    const sizes: number[] = [];
    const batch = new MicroBatch<number, number>(
      async (items) => {
        sizes.push(items.length);
        return items;
      },
      2,
      3,
    );
    await Promise.all([1, 2, 3, 4, 5].map((item) => batch.push(item)));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('rejects every call of a failed batch with its error', async () => {
    const failure = new Error('down');
    const batch = new MicroBatch<number, number>(async () => {
      throw failure;
    });
    const results = await Promise.allSettled([batch.push(1), batch.push(2)]);
    expect(results).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
  });

  it('gathers the calls made while a flush is in flight into the next batch', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batch = new MicroBatch<number, number>(
      async (items) => {
        batches.push([...items]);
        if (batches.length === 1) await gate;
        return items;
      },
      1000,
      1,
    );
    const first = batch.push(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((item) => batch.push(item));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toEqual([[1]]); // one flush in flight: the others wait for it
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });
});
