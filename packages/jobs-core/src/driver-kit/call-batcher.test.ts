import { describe, expect, it } from 'vitest';
import { CallBatcher } from './call-batcher.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('CallBatcher', () => {
  it('sends the calls of one turn together and answers each its own', async () => {
    const sent: string[][] = [];
    const batcher = new CallBatcher<string, string>(
      async (items) => {
        sent.push([...items]);
        return items.map((item) => item.toUpperCase());
      },
      100,
      1,
    );
    expect(await Promise.all(['a', 'b', 'c'].map((item) => batcher.call(item)))).toEqual(['A', 'B', 'C']);
    expect(sent).toEqual([['a', 'b', 'c']]);
  });

  it('holds calls made while a flush is in flight and sends them as one, at most maxBatch each', async () => {
    const sent: number[][] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const batcher = new CallBatcher<number, number>(
      async (items) => {
        sent.push([...items]);
        if (sent.length === 1) await gate;
        return items;
      },
      2,
      1,
    );
    const first = batcher.call(0);
    await nextTurn();
    const later = [1, 2, 3].map((item) => batcher.call(item));
    await nextTurn();
    expect(sent).toEqual([[0]]);
    open();
    expect(await Promise.all([first, ...later])).toEqual([0, 1, 2, 3]);
    expect(sent).toEqual([[0], [1, 2], [3]]);
  });

  it('rejects every call of a failed flush with its error', async () => {
    const down = new Error('down');
    const batcher = new CallBatcher<number, number>(
      async () => {
        throw down;
      },
      10,
      1,
    );
    const results = await Promise.allSettled([batcher.call(1), batcher.call(2)]);
    expect(results.map((result) => result.status === 'rejected' && result.reason)).toEqual([down, down]);
  });

  it('runs up to maxInFlight flushes at once', async () => {
    const sizes: number[] = [];
    let running = 0;
    let peak = 0;
    const batcher = new CallBatcher<number, number>(
      async (items) => {
        sizes.push(items.length);
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return items;
      },
      2,
      3,
    );
    await Promise.all([1, 2, 3, 4, 5].map((item) => batcher.call(item)));
    expect(sizes).toEqual([2, 2, 1]);
    expect(peak).toBe(3);
  });
});
