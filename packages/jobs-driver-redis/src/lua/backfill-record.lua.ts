import { defineLuaScript } from '../lua-script.js';

/** Inserts or replaces one backfill ledger row. */
export const BACKFILL_RECORD_SCRIPT = defineLuaScript({
  name: 'backfill-record',
  contract: `
Stores the row keyed by ARGV[1] (the JSON of [name, runId]) and indexes it by startedAt.
KEYS[1] backfills           hash: [name, runId] JSON -> record JSON
KEYS[2] backfills_started   sorted set: [name, runId] JSON by startedAt
ARGV[1] row key    ARGV[2] record JSON    ARGV[3] startedAt epoch ms
Returns: 1.
`,
  keys: ['backfills', 'backfills_started'],
  body: `
redis.call('HSET', K_BACKFILLS, ARGV[1], ARGV[2])
redis.call('ZADD', K_BACKFILLS_STARTED, ARGV[3], ARGV[1])
return 1
`,
});
