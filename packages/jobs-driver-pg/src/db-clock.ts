import type { SqlSession } from './sql-session.js';

/**
 * The database's clock read synchronously: `now()` is the local clock plus the offset to the
 * server's, sampled when the driver starts. Statements compare against the server's `now()`
 * itself; this is what `JobDriver.now()` answers so callers compute `runAt` on the same clock.
 */
export class DbClock {
  #offsetMs = 0;

  /** Epoch ms on the database's clock (the local clock until the first sample). */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** The last sampled difference server − local, in ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Samples the server clock, halving the round trip to estimate the moment it answered. */
  async sample(session: SqlSession): Promise<void> {
    const before = Date.now();
    const rows = await session.query<{ now_ms: number }>(
      'select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms',
    );
    const after = Date.now();
    const serverMs = Number(rows[0]?.now_ms);
    if (Number.isFinite(serverMs)) this.#offsetMs = Math.round(serverMs - (before + after) / 2);
  }
}
