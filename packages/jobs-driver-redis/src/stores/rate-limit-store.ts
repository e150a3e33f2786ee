import type { RateLimitStore, RateLimitTake } from '@x/jobs-core/driver';
import { callScript, type DriverContext } from '../driver-context.js';
import { RATE_LIMIT_TAKE_SCRIPT } from '../lua/rate-limit-take.lua.js';

const GRANTED: RateLimitTake = Object.freeze({ ok: true });

/**
 * Sliding-window rate limits: per key a list of the grants still counting (`rate:<key>`) and the
 * tail of its line of refusals (`rate-tail:<key>`), both under the prefix's hash tag and both
 * expiring by themselves; each take is one script (`rate-limit-take`), exact across processes.
 */
export function createRateLimitStore(context: DriverContext): RateLimitStore {
  return {
    async take(key, window): Promise<RateLimitTake> {
      const reply = (await callScript(
        context,
        'rateLimits.take',
        RATE_LIMIT_TAKE_SCRIPT,
        [window.limit, window.perMs],
        { rate: context.keys.rate(key), rate_tail: context.keys.rateTail(key) },
      )) as [number, string?];
      if (reply[0] === 1) return GRANTED;
      return { ok: false, retryAt: Number(reply[1]) };
    },
  };
}
