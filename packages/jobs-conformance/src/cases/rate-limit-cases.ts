import type { RateLimitTake } from '@x/jobs-core/driver';
import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'rate limits';

/** The slack allowed between `driver.now()` and the backend's own clock, as a share of a tick. */
const skewOf = (tickMs: number) => Math.ceil(tickMs / 4);

const retryAtOf = (take: RateLimitTake): number => {
  expect(take.ok, 'a refused take').toBe(false);
  return (take as { retryAt: number }).retryAt;
};

/** The sliding-window rate-limit store: exact under racing takers, sliding windows, retryAt bounds. */
export const rateLimitCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'take grants limit takes in a window, then refuses with a retryAt; keys are separate',
    async run(h) {
      const key = h.unique('rate:partner');
      const window = { limit: 3, perMs: 3_600_000 };
      for (let i = 0; i < 3; i += 1) expect(await h.rateLimits.take(key, window)).toEqual({ ok: true });
      const refused = await h.rateLimits.take(key, window);
      expect(refused.ok).toBe(false);
      expect(retryAtOf(refused)).toBeGreaterThan(h.driver.now());
      expect(await h.rateLimits.take(h.unique('rate:other'), window), 'keys are separate').toEqual({
        ok: true,
      });
    },
  },
  {
    group,
    name: 'concurrent takes never grant more than limit',
    async run(h) {
      const key = h.unique('rate:racy');
      const window = { limit: 5, perMs: 3_600_000 };
      const takes = await Promise.all(Array.from({ length: 24 }, () => h.rateLimits.take(key, window)));
      expect(takes.filter((take) => take.ok)).toHaveLength(5);
      const retryAts = takes.filter((take) => !take.ok).map(retryAtOf);
      expect(new Set(retryAts).size, 'every refusal gets its own place in line').toBe(19);
      expect(await h.rateLimits.take(key, window)).toMatchObject({ ok: false });
    },
  },
  {
    group,
    name: 'retryAt is when the oldest grant stops counting, and a take then is granted',
    async run(h) {
      const key = h.unique('rate:bounds');
      const perMs = h.tickMs * 3;
      const skew = skewOf(h.tickMs);
      const before = h.driver.now();
      expect(await h.rateLimits.take(key, { limit: 1, perMs })).toEqual({ ok: true });
      const after = h.driver.now();
      const retryAt = retryAtOf(await h.rateLimits.take(key, { limit: 1, perMs }));
      expect(retryAt, 'not before the grant stops counting').toBeGreaterThanOrEqual(before + perMs - skew);
      expect(retryAt, 'the first refusal gets exactly that moment').toBeLessThanOrEqual(after + perMs + skew);
      await h.advance(Math.max(0, retryAt - h.driver.now()) + skew);
      expect(await h.rateLimits.take(key, { limit: 1, perMs }), 'granted at retryAt').toEqual({ ok: true });
    },
  },
  {
    group,
    name: 'refused takers line up perMs / limit apart behind the first',
    async run(h) {
      const key = h.unique('rate:line');
      const window = { limit: 4, perMs: 3_600_000 };
      for (let i = 0; i < 4; i += 1) await h.rateLimits.take(key, window);
      const first = retryAtOf(await h.rateLimits.take(key, window));
      const second = retryAtOf(await h.rateLimits.take(key, window));
      const third = retryAtOf(await h.rateLimits.take(key, window));
      expect([second - first, third - second]).toEqual([900_000, 900_000]);
      const odd = h.unique('rate:odd');
      await h.rateLimits.take(odd, { limit: 3, perMs: 1_000 });
      await h.rateLimits.take(odd, { limit: 3, perMs: 1_000 });
      await h.rateLimits.take(odd, { limit: 3, perMs: 1_000 });
      const a = retryAtOf(await h.rateLimits.take(odd, { limit: 3, perMs: 1_000 }));
      const b = retryAtOf(await h.rateLimits.take(odd, { limit: 3, perMs: 1_000 }));
      expect(b - a, 'the spacing rounds up to whole ms').toBe(334);
    },
  },
  {
    group,
    name: 'the window slides: each grant stops counting perMs after it was made',
    async run(h) {
      const key = h.unique('rate:slide');
      const window = { limit: 2, perMs: h.tickMs * 10 };
      const skew = skewOf(h.tickMs);
      const firstAt = h.driver.now();
      expect(await h.rateLimits.take(key, window)).toEqual({ ok: true });
      await h.advance(h.tickMs * 5);
      expect(await h.rateLimits.take(key, window)).toEqual({ ok: true });
      const refused = retryAtOf(await h.rateLimits.take(key, window));
      expect(refused, 'the first grant frees the first place').toBeLessThan(
        firstAt + window.perMs + h.tickMs + skew,
      );
      await h.advance(Math.max(0, refused - h.driver.now()) + skew);
      expect(await h.rateLimits.take(key, window), 'the first grant stopped counting').toEqual({ ok: true });
      const again = retryAtOf(await h.rateLimits.take(key, window));
      expect(again, 'the second grant still counts').toBeGreaterThan(h.driver.now());
    },
  },
  {
    group,
    name: 'a take with a lower limit counts the grants made under a higher one',
    async run(h) {
      const key = h.unique('rate:shared');
      for (let i = 0; i < 3; i += 1) await h.rateLimits.take(key, { limit: 5, perMs: 3_600_000 });
      expect(await h.rateLimits.take(key, { limit: 2, perMs: 3_600_000 })).toMatchObject({ ok: false });
      expect(await h.rateLimits.take(key, { limit: 5, perMs: 3_600_000 })).toEqual({ ok: true });
    },
  },
];
