import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FairCandidate, type FairService, fairOrder } from './fair-order.js';
import { FAIR_SERVICE_UNIT, fairPolicy } from './fair-policy.js';

const rows = (tenantId: string | null, count: number, from: number, priority = 0): FairCandidate[] =>
  Array.from({ length: count }, (_, i) => ({ tenantId, priority, runAt: 0, seq: from + i }));

const tenants = (picked: readonly FairCandidate[]) => picked.map((row) => row.tenantId ?? '-').join('');
const fresh: FairService = { clock: 0, served: new Map() };
const even = fairPolicy(new Map()).costOf;
const U = FAIR_SERVICE_UNIT;

/** Claims of one row, repeated `times`, carrying the service from one to the next. */
function claimsOfOne(due: FairCandidate[], times: number, costOf = even, start: FairService = fresh) {
  let service = start;
  const left = [...due];
  const order: FairCandidate[] = [];
  for (let i = 0; i < times; i += 1) {
    const take = fairOrder(left, service, 1, costOf);
    const row = take.rows[0];
    if (row === undefined) break;
    order.push(row);
    left.splice(left.indexOf(row), 1);
    service = { clock: take.clock, served: new Map([...service.served, ...take.served]) };
  }
  return { order, service };
}

describe('fairOrder', () => {
  it('interleaves tenants one row each while both have rows, the older row first on a tie', () => {
    const due = [...rows('a', 6, 1), ...rows('b', 2, 100)];
    expect(tenants(fairOrder(due, fresh, 6, even).rows)).toBe('ababaa');
  });

  it("serves a newly arrived tenant's first row next, whatever the backlog ahead of it", () => {
    const a = rows('a', 40, 1);
    const first = claimsOfOne(a, 5);
    expect(tenants(first.order)).toBe('aaaaa');
    const left = [...a.slice(5), ...rows('b', 3, 100)];
    expect(tenants(claimsOfOne(left, 8, even, first.service).order)).toBe('bababaaa');
  });

  it('counts service given, not rows held: a tenant served before banks no credit', () => {
    const due = [...rows('a', 6, 1), ...rows('b', 6, 100)];
    const service = { clock: 2 * U, served: new Map([['a', 3 * U]]) };
    expect(tenants(fairOrder(due, service, 5, even).rows)).toBe('babab');
  });

  it('gives tenants rows in proportion to their weights', () => {
    const costOf = fairPolicy(new Map([['a', 3]])).costOf;
    const due = [...rows('a', 30, 1), ...rows('b', 30, 100)];
    expect(tenants(fairOrder(due, fresh, 16, costOf).rows)).toBe('abaaabaaabaaabaa');
  });

  it('treats rows with no tenant as one more tenant', () => {
    const due = [...rows(null, 3, 1), ...rows('a', 3, 10)];
    expect(tenants(fairOrder(due, fresh, 4, even).rows)).toBe('-a-a');
  });

  it("orders a tenant's own rows by priority, and breaks a start tag's ties by priority", () => {
    const due = [...rows('a', 2, 1), ...rows('a', 1, 3, 5), ...rows('b', 1, 50, 1)];
    const picked = fairOrder(due, fresh, 4, even).rows;
    expect(picked.map((row) => `${row.tenantId}${row.priority}`)).toEqual(['a5', 'b1', 'a0', 'a0']);
  });

  it('answers nothing for a limit below one, and leaves the service as it was', () => {
    const take = fairOrder(rows('a', 2, 1), fresh, 0, even);
    expect(take.rows).toEqual([]);
    expect(take.clock).toBe(0);
    expect(take.served.size).toBe(0);
  });

  it('a claim of n rows answers what n claims of one row answer', () => {
    const tenant = fc.constantFrom('a', 'b', 'c', null);
    fc.assert(
      fc.property(fc.array(tenant, { maxLength: 30 }), fc.integer({ min: 1, max: 30 }), (owners, n) => {
        const due = owners.map((tenantId, seq) => ({ tenantId, priority: 0, runAt: 0, seq }));
        const costOf = fairPolicy(
          new Map([
            ['a', 2],
            ['c', 0.5],
          ]),
        ).costOf;
        const batch = fairOrder(due, fresh, n, costOf);
        const single = claimsOfOne(due, n, costOf);
        expect(batch.rows).toEqual(single.order);
        expect(batch.clock).toBe(single.service.clock);
      }),
    );
  });
});
