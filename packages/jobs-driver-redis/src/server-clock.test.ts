import { describe, expect, it } from 'vitest';
import { offsetFromSamples } from './server-clock.js';

describe('offsetFromSamples', () => {
  it('is 0 when the server time falls inside every round trip (clocks agree within the precision)', () => {
    expect(offsetFromSamples([{ sent: 1000, server: 1003, received: 1008 }])).toBe(0);
    expect(offsetFromSamples([{ sent: 1000, server: 1000, received: 1000 }])).toBe(0);
  });

  it('is the smallest correction the bounds allow when the server runs ahead or behind', () => {
    // Ahead: the server read 1500 while the local clock read 1000 to 1004: the offset lies in [495, 501].
    expect(offsetFromSamples([{ sent: 1000, server: 1500, received: 1004 }])).toBe(495);
    // Behind: the offset lies in [-405, -399].
    expect(offsetFromSamples([{ sent: 1000, server: 600, received: 1004 }])).toBe(-399);
  });

  it('intersects the bounds of several samples', () => {
    const samples = [
      { sent: 1000, server: 1500, received: 1040 }, // offset in [459, 501]
      { sent: 2000, server: 2490, received: 2004 }, // offset in [485, 491]
    ];
    expect(offsetFromSamples(samples)).toBe(485);
  });

  it('falls back to the midpoint of the last sample when the bounds disagree (a clock stepped)', () => {
    const samples = [
      { sent: 1000, server: 1000, received: 1002 },
      { sent: 2000, server: 3000, received: 2002 },
    ];
    expect(offsetFromSamples(samples)).toBe(999);
  });

  it('is 0 without samples', () => {
    expect(offsetFromSamples([])).toBe(0);
  });
});
