import type { BackfillLedger, BackfillQuery, BackfillRecord } from '@x/jobs-core/driver';
import { callClient, callScript, type DriverContext } from '../driver-context.js';
import { BACKFILL_RECORD_SCRIPT } from '../lua/backfill-record.lua.js';

/** Rows one listing round trip reads. */
const LIST_PAGE = 200;

/** The backfill ledger: one hash of rows keyed by `[name, runId]`, indexed by startedAt. */
export function createBackfillLedger(context: DriverContext): BackfillLedger {
  const rowKey = (name: string, runId: string) => JSON.stringify([name, runId]);
  return {
    async record(row: BackfillRecord): Promise<void> {
      await callScript(context, 'backfills.record', BACKFILL_RECORD_SCRIPT, [
        rowKey(row.name, row.runId),
        JSON.stringify(row),
        row.startedAt,
      ]);
    },
    async get(name: string, runId: string): Promise<BackfillRecord | null> {
      const value = await callClient(context, 'backfills.get', (client) =>
        client.hget(context.keys.backfills, rowKey(name, runId)),
      );
      return value === null ? null : (JSON.parse(value) as BackfillRecord);
    },
    async list(query: BackfillQuery = {}): Promise<readonly BackfillRecord[]> {
      const limit = query.limit ?? 100;
      const rows: BackfillRecord[] = [];
      for (let start = 0; rows.length < limit; start += LIST_PAGE) {
        const page = await callClient(context, 'backfills.list', async (client) => {
          const keys = await client.zrevrange(context.keys.backfillsStarted, start, start + LIST_PAGE - 1);
          return keys.length === 0 ? [] : await client.hmget(context.keys.backfills, ...keys);
        });
        for (const value of page) {
          if (value === null) continue;
          const row = JSON.parse(value) as BackfillRecord;
          if (query.name !== undefined && row.name !== query.name) continue;
          if (query.status !== undefined && row.status !== query.status) continue;
          if (rows.length < limit) rows.push(row);
        }
        if (page.length < LIST_PAGE) break;
      }
      return rows;
    },
  };
}
