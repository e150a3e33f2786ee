import { describe, expect, it } from 'vitest';
import { type FairCandidate, fairOrder } from './fair-order.js';

const rows = (tenantId: string | null, count: number, from: number, priority = 0): FairCandidate[] =>
  Array.from({ length: count }, (_, i) => ({ tenantId, priority, runAt: 0, seq: from + i }));

const tenants = (picked: readonly FairCandidate[]) => picked.map((row) => row.tenantId ?? '-').join('');

describe('fairOrder', () => {
  it('interleaves tenants one row per turn, the older row first within a turn', () => {
    const due = [...rows('a', 6, 1), ...rows('b', 2, 100)];
    expect(tenants(fairOrder(due, new Map(), 6))).toBe('ababaa');
  });

  it('serves the tenants holding fewer rows first', () => {
    const due = [...rows('a', 6, 1), ...rows('b', 6, 100)];
    expect(tenants(fairOrder(due, new Map([['a', 3]]), 5))).toBe('bbbab');
  });

  it('treats rows with no tenant as one more tenant', () => {
    const due = [...rows(null, 3, 1), ...rows('a', 3, 10)];
    expect(tenants(fairOrder(due, new Map([[null, 1]]), 3))).toBe('a-a');
  });

  it("orders a tenant's own rows by priority, and breaks a turn's ties by priority", () => {
    const due = [...rows('a', 2, 1), ...rows('a', 1, 3, 5), ...rows('b', 1, 50, 1)];
    const picked = fairOrder(due, new Map(), 4);
    expect(picked.map((row) => `${row.tenantId}${row.priority}`)).toEqual(['a5', 'b1', 'a0', 'a0']);
  });

  it('answers nothing for a limit below one', () => {
    expect(fairOrder(rows('a', 2, 1), new Map(), 0)).toEqual([]);
  });
});
