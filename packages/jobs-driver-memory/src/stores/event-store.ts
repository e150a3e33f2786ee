import type { EventStore } from '@x/jobs-core/driver';
import { jsonContains } from '@x/jobs-core/driver';
import { copyJson } from '../json-copy.js';
import { type MemoryStore, nextId, nextSeq, notifyDue, refile } from '../memory-store.js';

/** Published events kept for their TTL; a publish makes every job suspended on that event due now. */
export function createEventStore(store: MemoryStore): EventStore {
  return {
    async publish(event, payload, { ttlMs }) {
      const now = store.clock.now();
      const record = {
        id: nextId(store, 'event'),
        event,
        payload: copyJson(payload),
        publishedAt: now,
        expiresAt: now + ttlMs,
      };
      store.events.push({ ...record, seq: nextSeq(store) });
      for (const row of store.jobs.values()) {
        if (row.state === 'suspended' && row.waitingFor === event && row.runAt > now) {
          row.runAt = now;
          refile(store, row);
          notifyDue(store, row.queue);
        }
      }
      return { ...record, payload: copyJson(record.payload) };
    },
    async find(event, query) {
      const now = store.clock.now();
      let earliest: (typeof store.events)[number] | undefined;
      for (const record of store.events) {
        const fits =
          record.event === event &&
          record.expiresAt > now &&
          record.publishedAt >= query.since &&
          (query.match === undefined || jsonContains(record.payload, query.match));
        if (fits && (earliest === undefined || record.publishedAt < earliest.publishedAt)) earliest = record;
      }
      if (earliest === undefined) return null;
      const { seq: _seq, ...found } = earliest;
      return { ...found, payload: copyJson(found.payload) };
    },
    async purgeExpired() {
      const now = store.clock.now();
      const before = store.events.length;
      const kept = store.events.filter((record) => record.expiresAt > now);
      store.events.splice(0, before, ...kept);
      return before - kept.length;
    },
  };
}
