import type { RateLimitStore, RateLimitTake } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';

interface TakeRow {
  readonly granted: boolean;
  readonly last_retry_at: string | number;
}

const GRANTED: RateLimitTake = Object.freeze({ ok: true });

/**
 * Sliding-window rate limits in `rate_limits`, one row per key: each take is the single upsert
 * `SQL_RATE_LIMIT_TAKE` (exact across processes; see its header for the rule).
 */
export function createRateLimitStore(ctx: DriverContext): RateLimitStore {
  return {
    async take(key, window) {
      const [row] = await ctx.query<TakeRow>(ctx.sql.rateLimitTake, [key, window.limit, window.perMs]);
      if (row === undefined || row.granted) return GRANTED;
      return { ok: false, retryAt: Number(row.last_retry_at) };
    },
  };
}
