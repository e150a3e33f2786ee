import { randomUUID } from 'node:crypto';
import type { LeaseGrant, LeaseStore } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { epochMs } from '../row-values.js';
import { dbNow, nowPlusMs } from '../sql-time.js';

interface LeaseRow {
  readonly token: string;
  readonly key: string;
  readonly holder: string;
  readonly expires_at: unknown;
}

function toGrant(row: LeaseRow): LeaseGrant {
  return { key: row.key, holder: row.holder, token: row.token, expiresAt: epochMs(row.expires_at) };
}

/**
 * Counted slots with a TTL, one `leases` row per held slot. `acquire` runs in one transaction
 * under a transaction-scoped advisory lock on (schema, key), so two acquirers of the last slot
 * cannot both see it free; `renew` and `release` are single statements fenced on the token.
 */
export function createLeaseStore(ctx: DriverContext): LeaseStore {
  return {
    acquire(key, holder, options) {
      return ctx.transaction(async (trx, session) => {
        await session.query('select pg_advisory_xact_lock(hashtext($1), hashtext($2))', [ctx.schema, key]);
        await trx.deleteFrom('leases').where('key', '=', key).where('expires_at', '<=', dbNow).execute();
        const renewed = await trx
          .updateTable('leases')
          .set({ expires_at: nowPlusMs(options.ttlMs) })
          .where('key', '=', key)
          .where('holder', '=', holder)
          .returning(['token', 'key', 'holder', 'expires_at'])
          .executeTakeFirst();
        if (renewed !== undefined) return toGrant(renewed);
        const held = await trx
          .selectFrom('leases')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('key', '=', key)
          .executeTakeFirstOrThrow();
        if (Number(held.n) >= options.limit) return null;
        const inserted = await trx
          .insertInto('leases')
          .values({ token: randomUUID(), key, holder, expires_at: nowPlusMs(options.ttlMs) })
          .returning(['token', 'key', 'holder', 'expires_at'])
          .executeTakeFirstOrThrow();
        return toGrant(inserted);
      });
    },
    async renew(grant, ttlMs) {
      const row = await ctx.build((db) =>
        db
          .updateTable('leases')
          .set({ expires_at: nowPlusMs(ttlMs) })
          .where('token', '=', grant.token)
          .where('expires_at', '>', dbNow)
          .returning(['token', 'key', 'holder', 'expires_at'])
          .executeTakeFirst(),
      );
      return row === undefined ? null : toGrant(row);
    },
    async release(grant) {
      const rows = await ctx.build((db) =>
        db
          .deleteFrom('leases')
          .where('token', '=', grant.token)
          .where('expires_at', '>', dbNow)
          .returning('token')
          .execute(),
      );
      return rows.length > 0;
    },
    async holders(key) {
      const rows = await ctx.build((db) =>
        db
          .selectFrom('leases')
          .select(['token', 'key', 'holder', 'expires_at'])
          .where('key', '=', key)
          .where('expires_at', '>', dbNow)
          .orderBy('acquired_at')
          .execute(),
      );
      return rows.map(toGrant);
    },
  };
}
