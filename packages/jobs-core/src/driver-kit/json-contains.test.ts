import { describe, expect, it } from 'vitest';
import { jsonContains } from './json-contains.js';

describe('jsonContains (Postgres @> semantics)', () => {
  it('an object contains a subset of its keys, nested objects compared the same way', () => {
    const payload = { a: 1, b: { c: 'x', d: [1, 2] }, e: null };
    expect(jsonContains(payload, {})).toBe(true);
    expect(jsonContains(payload, { a: 1 })).toBe(true);
    expect(jsonContains(payload, { b: { c: 'x' } })).toBe(true);
    expect(jsonContains(payload, { e: null })).toBe(true);
    expect(jsonContains(payload, { b: { c: 'y' } })).toBe(false);
    expect(jsonContains(payload, { missing: null })).toBe(false);
  });

  it('scalars must be equal in value and type', () => {
    expect(jsonContains({ n: 7 }, { n: '7' })).toBe(false);
    expect(jsonContains({ t: true }, { t: 1 })).toBe(false);
    expect(jsonContains('s', 's')).toBe(true);
  });

  it('an array contains each needle element in some element of its own', () => {
    expect(jsonContains({ tags: ['a', 'b', 'c'] }, { tags: ['c', 'a'] })).toBe(true);
    expect(jsonContains({ tags: ['a'] }, { tags: ['a', 'z'] })).toBe(false);
    expect(jsonContains({ items: [{ id: 1, q: 2 }] }, { items: [{ id: 1 }] })).toBe(true);
    expect(jsonContains({ tags: 'a' }, { tags: ['a'] })).toBe(false);
    expect(jsonContains(['a'], { 0: 'a' })).toBe(false);
  });
});

describe('jsonContains (event payloads)', () => {
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
