import type { SqlSession } from './sql-session.js';

/** Samples taken at start: the offset must agree with all of them. */
const SAMPLES = 5;

/**
 * The database's clock read synchronously: `now()` is the local clock plus a whole-ms offset to
 * the server's, measured when the driver starts. Statements compare against the server's `now()`
 * itself; this is what `JobDriver.now()` answers, so callers compute `runAt` on the same clock.
 *
 * Each sample bounds the offset: the server read its clock between our send and receive, so
 * offset ∈ [server − received, server − sent]. The offset kept is the smallest correction inside
 * every bound (0 when the server shares this host's clock), or the tightest sample's midpoint
 * when the bounds disagree.
 */
export class DbClock {
  #offsetMs = 0;

  /** Epoch ms on the database's clock (the local clock until the first sample). */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** The sampled difference server − local, in whole ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Samples the server clock {@link SAMPLES} times and keeps the offset all samples allow. */
  async sample(session: SqlSession): Promise<void> {
    let low = Number.NEGATIVE_INFINITY;
    let high = Number.POSITIVE_INFINITY;
    let tightest = { width: Number.POSITIVE_INFINITY, middle: 0 };
    for (let i = 0; i < SAMPLES; i += 1) {
      const sent = preciseNow();
      const rows = await session.query<{ now_ms: number }>(
        'select (extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms',
      );
      const received = preciseNow();
      const server = Number(rows[0]?.now_ms);
      if (!Number.isFinite(server)) return;
      low = Math.max(low, server - received);
      high = Math.min(high, server - sent);
      if (received - sent < tightest.width) {
        tightest = { width: received - sent, middle: server - (sent + received) / 2 };
      }
    }
    const offset = low <= high ? Math.min(Math.max(0, low), high) : tightest.middle;
    this.#offsetMs = Math.round(offset);
  }
}

function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}
