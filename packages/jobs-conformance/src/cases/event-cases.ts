import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'events';

/** The event store: publish, find by name, since and containment, expiry and purge. */
export const eventCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a published event is found with its payload, times and id',
    async run(h) {
      const event = h.unique('user.signed-up');
      const since = h.driver.now();
      const published = await h.driver.events.publish(
        event,
        { userId: 'u1', plan: 'pro' },
        { ttlMs: LONG_MS },
      );
      expect(published).toMatchObject({ event, payload: { userId: 'u1', plan: 'pro' } });
      expect(published.expiresAt - published.publishedAt).toBe(LONG_MS);
      expect(published.publishedAt).toBeGreaterThanOrEqual(since - 25);
      expect(await h.driver.events.find(event, { since })).toEqual(published);
      expect(await h.driver.events.find(h.unique('other'), { since }), 'scoped by name').toBeNull();
    },
  },
  {
    group,
    name: 'find matches by JSON containment, nested objects included',
    async run(h) {
      const event = h.unique('order.paid');
      const since = h.driver.now();
      await h.driver.events.publish(
        event,
        { orderId: 'o1', customer: { id: 'c1', tier: 'gold' }, total: 5 },
        { ttlMs: LONG_MS },
      );
      const second = await h.driver.events.publish(
        event,
        { orderId: 'o2', customer: { id: 'c2', tier: 'gold' }, total: 7 },
        { ttlMs: LONG_MS },
      );
      expect((await h.driver.events.find(event, { since, match: { orderId: 'o2' } }))?.id).toBe(second.id);
      expect((await h.driver.events.find(event, { since, match: { customer: { id: 'c2' } } }))?.id).toBe(
        second.id,
      );
      expect(await h.driver.events.find(event, { since, match: { orderId: 'o3' } })).toBeNull();
      expect(
        await h.driver.events.find(event, { since, match: { customer: { id: 'c1', tier: 'silver' } } }),
      ).toBeNull();
      expect(
        await h.driver.events.find(event, { since, match: { total: '7' } }),
        'types are compared too',
      ).toBeNull();
      expect(await h.driver.events.find(event, { since, match: { missing: null } }), 'absent key').toBeNull();
    },
  },
  {
    group,
    name: 'find answers the earliest event published at or after since',
    async run(h) {
      const event = h.unique('tick');
      const first = await h.driver.events.publish(event, { n: 1 }, { ttlMs: LONG_MS });
      await h.advance(h.tickMs);
      const boundary = h.driver.now();
      const second = await h.driver.events.publish(event, { n: 2 }, { ttlMs: LONG_MS });
      await h.advance(2);
      await h.driver.events.publish(event, { n: 3 }, { ttlMs: LONG_MS });
      expect((await h.driver.events.find(event, { since: first.publishedAt }))?.id).toBe(first.id);
      expect((await h.driver.events.find(event, { since: boundary }))?.id).toBe(second.id);
      expect(await h.driver.events.find(event, { since: h.driver.now() + LONG_MS })).toBeNull();
    },
  },
  {
    group,
    name: 'an expired event is no longer found; an unexpired one still is',
    async run(h) {
      const event = h.unique('short-lived');
      const since = h.driver.now();
      const short = await h.driver.events.publish(event, { keep: false }, { ttlMs: h.tickMs });
      expect(short.expiresAt - short.publishedAt).toBe(h.tickMs);
      const long = await h.driver.events.publish(event, { keep: true }, { ttlMs: LONG_MS });
      await h.advance(h.tickMs * 2);
      expect((await h.driver.events.find(event, { since }))?.id).toBe(long.id);
      expect(await h.driver.events.find(event, { since, match: { keep: false } })).toBeNull();
    },
  },
  {
    group,
    name: 'purgeExpired deletes expired events, counts them, and keeps unexpired ones',
    async run(h) {
      const event = h.unique('purged');
      const since = h.driver.now();
      await h.driver.events.publish(event, { n: 1 }, { ttlMs: h.tickMs });
      await h.driver.events.publish(event, { n: 2 }, { ttlMs: h.tickMs });
      const kept = await h.driver.events.publish(event, { n: 3 }, { ttlMs: LONG_MS });
      await h.advance(h.tickMs * 2);
      expect(await h.driver.events.purgeExpired()).toBeGreaterThanOrEqual(2);
      expect((await h.driver.events.find(event, { since }))?.id).toBe(kept.id);
    },
  },
  {
    group,
    name: 'purgeExpired counts only what it deleted: a second call at once counts none of the events kept',
    async run(h) {
      const event = h.unique('kept');
      const kept = 5;
      await h.driver.events.publish(event, { n: 0 }, { ttlMs: h.tickMs });
      for (let i = 1; i <= kept; i += 1) await h.driver.events.publish(event, { n: i }, { ttlMs: LONG_MS });
      await h.advance(h.tickMs * 2);
      expect(await h.driver.events.purgeExpired(), 'the expired one at least').toBeGreaterThanOrEqual(1);
      expect(await h.driver.events.purgeExpired(), 'nothing it keeps is counted').toBeLessThan(kept);
      expect((await h.driver.events.find(event, { since: 0 }))?.payload).toEqual({ n: 1 });
    },
  },
];
