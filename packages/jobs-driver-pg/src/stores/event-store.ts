import type { JsonValue } from '@x/jobs-core';
import type { EventRecord, EventStore } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { epochMs, jsonParam } from '../row-values.js';
import { dbNow } from '../sql-time.js';

interface EventRow {
  readonly id: string;
  readonly event: string;
  readonly payload: JsonValue;
  readonly published_at: unknown;
  readonly expires_at: unknown;
}

function toEventRecord(row: EventRow): EventRecord {
  return {
    id: row.id,
    event: row.event,
    payload: row.payload,
    publishedAt: epochMs(row.published_at),
    expiresAt: epochMs(row.expires_at),
  };
}

/** Events in the `events` table; a publish wakes the runs suspended on it (SQL_EVENT_PUBLISH). */
export function createEventStore(ctx: DriverContext): EventStore {
  return {
    async publish(event, payload, options) {
      const rows = await ctx.query<EventRow>(ctx.sql.eventPublish, [
        event,
        jsonParam(payload),
        options.ttlMs,
      ]);
      return toEventRecord(rows[0] as EventRow);
    },
    async find(event, query) {
      const rows = await ctx.query<EventRow>(ctx.sql.eventFind, [
        event,
        query.since,
        query.match === undefined ? null : jsonParam(query.match),
      ]);
      return rows[0] === undefined ? null : toEventRecord(rows[0]);
    },
    async purgeExpired() {
      const result = await ctx.build((db) =>
        db.deleteFrom('events').where('expires_at', '<=', dbNow).executeTakeFirst(),
      );
      return Number(result.numDeletedRows);
    },
  };
}
