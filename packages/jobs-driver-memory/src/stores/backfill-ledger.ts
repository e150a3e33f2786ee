import type { BackfillLedger, BackfillRecord } from '@x/jobs-core/driver';
import { copyJson } from '../json-copy.js';
import type { MemoryStore } from '../memory-store.js';

const ledgerKey = (name: string, runId: string): string => JSON.stringify([name, runId]);
const copyRecord = (row: BackfillRecord): BackfillRecord => ({ ...row, cursor: copyJson(row.cursor) });

/** One ledger row per (name, runId), listed newest `startedAt` first. */
export function createBackfillLedger(store: MemoryStore): BackfillLedger {
  return {
    async record(row) {
      store.backfills.set(ledgerKey(row.name, row.runId), copyRecord(row));
    },
    async get(name, runId) {
      const row = store.backfills.get(ledgerKey(name, runId));
      return row === undefined ? null : copyRecord(row);
    },
    async list(query = {}) {
      return [...store.backfills.values()]
        .filter(
          (row) =>
            (query.name === undefined || row.name === query.name) &&
            (query.status === undefined || row.status === query.status),
        )
        .sort((a, b) => b.startedAt - a.startedAt)
        .slice(0, query.limit ?? 100)
        .map(copyRecord);
    },
  };
}
