import { randomUUID } from 'node:crypto';
import type { JsonValue } from '@x/jobs-core';
import type { EventQuery, EventRecord, EventStore } from '@x/jobs-core/driver';
import { jsonContains } from '@x/jobs-core/driver';
import { callScript, type DriverContext } from '../driver-context.js';
import { EVENT_FIND_SCRIPT } from '../lua/event-find.lua.js';
import { EVENT_PUBLISH_SCRIPT } from '../lua/event-publish.lua.js';
import { EVENT_PURGE_BATCH, EVENT_PURGE_SCRIPT } from '../lua/event-purge.lua.js';

/** How many events one find round trip reads. */
const FIND_PAGE = 100;

/** Events in one hash of records plus a sorted set per name; publishing wakes the waiting runs atomically. */
export function createEventStore(context: DriverContext): EventStore {
  return {
    async publish(
      event: string,
      payload: JsonValue,
      options: { readonly ttlMs: number },
    ): Promise<EventRecord> {
      const record = await callScript(context, 'events.publish', EVENT_PUBLISH_SCRIPT, [
        event,
        JSON.stringify(payload),
        Math.max(0, Math.round(options.ttlMs)),
        randomUUID(),
      ]);
      return JSON.parse(String(record)) as EventRecord;
    },
    async find(event: string, query: EventQuery): Promise<EventRecord | null> {
      for (let offset = 0; ; offset += FIND_PAGE) {
        const reply = (await callScript(context, 'events.find', EVENT_FIND_SCRIPT, [
          event,
          query.since,
          offset,
          FIND_PAGE,
        ])) as [number, string[]];
        for (const text of reply[1]) {
          const record = JSON.parse(text) as EventRecord;
          if (query.match === undefined || jsonContains(record.payload, query.match)) return record;
        }
        if (reply[0] < FIND_PAGE) return null;
      }
    },
    async purgeExpired(): Promise<number> {
      let total = 0;
      for (;;) {
        const deleted = Number(await callScript(context, 'events.purgeExpired', EVENT_PURGE_SCRIPT, []));
        total += deleted;
        if (deleted < EVENT_PURGE_BATCH) return total;
      }
    },
  };
}
