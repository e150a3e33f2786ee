import { describe, expect, it } from 'vitest';
import { JobTally } from './job-tally.js';

describe('JobTally', () => {
  it('counts runs, distinct ids, repeats and the ids never run', () => {
    const tally = new JobTally(4);
    tally.add(0, 10);
    tally.add(2, 5);
    tally.add(2, 30);
    expect({ count: tally.count, distinct: tally.distinct }).toEqual({ count: 3, distinct: 2 });
    expect({ duplicates: tally.duplicates, missing: tally.missing, twice: tally.idsRunTwice }).toEqual({
      duplicates: 1,
      missing: 2,
      twice: 1,
    });
    expect({ firstAt: tally.firstAt, lastAt: tally.lastAt }).toEqual({ firstAt: 5, lastAt: 30 });
  });

  it('resolves reached() once the count gets there, and rejects on timeout', async () => {
    const tally = new JobTally(2);
    const reached = tally.reached(2, 1_000);
    tally.add(0, 1);
    tally.add(1, 2);
    await expect(reached).resolves.toBeUndefined();
    await expect(new JobTally(1).reached(1, 5)).rejects.toBeInstanceOf(Error);
  });
});
