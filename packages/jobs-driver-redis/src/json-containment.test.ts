import { describe, expect, it } from 'vitest';
import { jsonContains } from './json-containment.js';

describe('jsonContains', () => {
  it('matches objects by the pattern keys, nested objects the same way', () => {
    const payload = { orderId: 'o-1', customer: { id: 'c-1', tier: 'gold' }, total: 10 };
    expect(jsonContains(payload, {})).toBe(true);
    expect(jsonContains(payload, { orderId: 'o-1' })).toBe(true);
    expect(jsonContains(payload, { customer: { tier: 'gold' } })).toBe(true);
    expect(jsonContains(payload, { customer: { tier: 'silver' } })).toBe(false);
    expect(jsonContains(payload, { missing: null })).toBe(false);
    expect(jsonContains(payload, { total: '10' })).toBe(false);
  });

  it('matches arrays by contained elements and scalars by equality', () => {
    expect(jsonContains({ tags: ['a', 'b', 'c'] }, { tags: ['c', 'a'] })).toBe(true);
    expect(jsonContains({ tags: ['a'] }, { tags: ['z'] })).toBe(false);
    expect(jsonContains({ items: [{ id: 1, q: 2 }] }, { items: [{ id: 1 }] })).toBe(true);
    expect(jsonContains(null, null)).toBe(true);
    expect(jsonContains([1], { 0: 1 })).toBe(false);
  });
});
