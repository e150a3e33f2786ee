import { describe, expect, it } from 'vitest';
import { keySpace } from './key-space.js';

describe('keySpace', () => {
  it('puts every key, static and per row, inside one {hash tag}', () => {
    const keys = keySpace('shop');
    const all = [
      keys.seq,
      keys.dedupe,
      keys.jobs,
      keys.queues,
      keys.paused,
      keys.eventRecords,
      keys.eventExpiry,
      keys.workers,
      keys.workersSeen,
      keys.schedules,
      keys.backfills,
      keys.backfillsStarted,
      keys.job('j-1'),
      keys.steps('r-1'),
      keys.lease('scheduler:leader'),
      keys.rate('key:partner-1'),
      keys.rateTail('key:partner-1'),
      keys.events('order.paid'),
    ];
    expect(keys.base).toBe('{shop}:');
    for (const key of all) expect(key.startsWith('{shop}:')).toBe(true);
    expect(new Set(all).size).toBe(all.length);
  });

  it('refuses a prefix that would break the hash tag', () => {
    for (const prefix of ['', 'a{b', 'a}b']) {
      expect(() => keySpace(prefix)).toThrow(expect.objectContaining({ code: 'X_REDIS_OPTIONS_INVALID' }));
    }
  });
});
