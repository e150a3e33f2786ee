import { describe, expect, it } from 'vitest';
import type { Execution } from '../attempt/execute-job.js';
import { HeldRun } from './held-run.js';

describe('HeldRun', () => {
  it('resolves every done asked for before the end, and answers at once after it', async () => {
    const held = new HeldRun({ lingering: undefined } as unknown as Execution);
    const order: string[] = [];
    const first = held.done.then(() => order.push('first'));
    const second = held.done.then(() => order.push('second'));
    await Promise.resolve();
    expect(order).toEqual([]);
    held.end();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    await held.done;
    await expect(held.bodyEnded()).resolves.toBeUndefined();
  });

  it('bodyEnded waits for a body its attempt left running', async () => {
    let endBody!: () => void;
    const lingering = new Promise<void>((resolve) => (endBody = resolve));
    const held = new HeldRun({ lingering } as unknown as Execution);
    let ended = false;
    const waiting = held.bodyEnded().then(() => (ended = true));
    held.end();
    await held.done;
    await Promise.resolve();
    expect(ended).toBe(false);
    endBody();
    await waiting;
    expect(ended).toBe(true);
  });
});
