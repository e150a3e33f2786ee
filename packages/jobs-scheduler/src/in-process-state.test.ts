import { describe, expect, it } from 'vitest';
import { inProcessState } from './in-process-state.js';

describe('inProcessState', () => {
  it('moves a watermark only from the expected value, creating the row on the first set', async () => {
    const state = inProcessState({ unsafe: true, now: () => 42 });
    expect(await state.get('t')).toBeNull();
    expect(await state.advance('t', 5, 10)).toBe(false);
    expect(await state.advance('t', null, 10)).toBe(true);
    expect(await state.advance('t', null, 20)).toBe(false);
    expect(await state.advance('t', 10, 20)).toBe(true);
    expect(await state.get('t')).toEqual({ task: 't', watermark: 20, paused: false, updatedAt: 42 });
  });

  it('keeps the pause flag across advances and creates a paused row with no watermark', async () => {
    const state = inProcessState({ unsafe: true });
    await state.setPaused('p', true);
    expect(await state.get('p')).toMatchObject({ watermark: null, paused: true });
    expect(await state.advance('p', null, 1)).toBe(true);
    expect(await state.list()).toEqual([expect.objectContaining({ task: 'p', watermark: 1, paused: true })]);
    expect(state.unsafe).toBe(true);
  });
});
