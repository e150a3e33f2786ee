import { job } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backfill } from './backfill.js';
import { backfillChecksum } from './backfill-checksum.js';
import { findBackfill, isBackfill, registeredBackfills } from './backfill-registry.js';

describe('registeredBackfills', () => {
  it('lists what was declared as data; isBackfill tells a backfill from a plain job', async () => {
    const pages = async () => ({ rows: [], next: null });
    const sweep = backfill({
      name: 'registry-sweep',
      tenant: 'none',
      batch: 50,
      rate: 2,
      requires: '20261201_add_slug',
      environments: ['staging', 'production'],
      count: () => 7,
      pages,
      handle: () => undefined,
    });
    const plain = job({
      name: 'registry-plain',
      input: z.object({}),
      idempotencyKey: () => 'k',
      tenant: 'none',
      run: () => undefined,
    });
    expect(registeredBackfills()).toContainEqual({
      kind: 'backfill',
      name: 'registry-sweep',
      checksum: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      requires: ['20261201_add_slug'],
      environments: ['staging', 'production'],
      counts: true,
      scoped: false,
      batch: 50,
      rate: 2,
      queue: 'default',
    });
    expect(isBackfill(sweep)).toBe(true);
    expect(isBackfill(plain)).toBe(false);
    expect(isBackfill({ ...sweep })).toBe(false);
    const found = findBackfill('registry-sweep');
    expect(found?.handle).toBe(sweep);
    expect(found?.ledgerName(undefined)).toBe('registry-sweep');
    expect(await found?.count?.(undefined, {}, new AbortController().signal)).toBe(7);
  });

  it('the checksum covers what the sweep does, not how fast it goes', () => {
    const handle = () => undefined;
    const pages = async () => ({ rows: [], next: null });
    const sum = (name: string) => registeredBackfills().find((row) => row.name === name)?.checksum;
    // Two processes declaring one sweep at different speeds: simulated by hashing the same parts.
    const parts = { name: 'checksum-a', functions: [pages, handle], key: null, requires: [] };
    expect(backfillChecksum(parts)).toBe(backfillChecksum({ ...parts }));
    expect(backfillChecksum({ ...parts, functions: [pages, () => 'changed'] })).not.toBe(
      backfillChecksum(parts),
    );
    expect(backfillChecksum({ ...parts, requires: ['m1'] })).not.toBe(backfillChecksum(parts));
    backfill({ name: 'checksum-b', tenant: 'none', rate: 1, batch: 10, pages, handle });
    backfill({ name: 'checksum-c', tenant: 'none', rate: 50, batch: 500, pages, handle });
    const b = sum('checksum-b');
    expect(b).toBe(
      backfillChecksum({
        name: 'checksum-b',
        functions: [pages, undefined, undefined, handle, undefined, undefined],
        key: null,
        requires: [],
      }),
    );
    expect(sum('checksum-c')).toBe(
      backfillChecksum({
        name: 'checksum-c',
        functions: [pages, undefined, undefined, handle, undefined, undefined],
        key: null,
        requires: [],
      }),
    );
  });
});
