import { errorCode } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { virtualClock } from './virtual-clock.js';

describe('virtualClock', () => {
  it('stands still until advanced', () => {
    const clock = virtualClock(1_000);
    expect(clock.now()).toBe(1_000);
    expect(clock.now()).toBe(1_000);
  });

  it('advances by milliseconds or a duration string', () => {
    const clock = virtualClock(0);
    expect(clock.advance(250)).toBe(250);
    expect(clock.advance('3d')).toBe(250 + 3 * 86_400_000);
    expect(clock.advance('500ms')).toBe(250 + 3 * 86_400_000 + 500);
    expect(clock.advance(0)).toBe(clock.now());
  });

  it('refuses a duration that is not one', () => {
    const clock = virtualClock(0);
    const thrown = (() => {
      try {
        clock.advance('3x' as '3s');
      } catch (error) {
        return error;
      }
    })();
    expect(errorCode(thrown)).toBe('X_DURATION_INVALID');
    expect(clock.now()).toBe(0);
  });

  it('jumps to an absolute time, backwards too, and refuses a non-finite one', () => {
    const clock = virtualClock(5_000);
    expect(clock.set(100)).toBe(100);
    expect(clock.now()).toBe(100);
    expect(() => clock.set(Number.NaN)).toThrow(expect.objectContaining({ code: 'X_CLOCK_TIME_INVALID' }));
  });

  it('starts at the wall clock by default', () => {
    const before = Date.now();
    const now = virtualClock().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
