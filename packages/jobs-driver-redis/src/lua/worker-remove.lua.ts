import { defineLuaScript } from '../lua-script.js';

/** Removes a worker's report (on a clean stop). */
export const WORKER_REMOVE_SCRIPT = defineLuaScript({
  name: 'worker-remove',
  contract: `
Removes the report of worker ARGV[1] from both worker keys.
KEYS[1] workers        hash: worker id -> report JSON
KEYS[2] workers_seen   sorted set: worker id by the time its report lapses
ARGV[1] worker id
Returns: 1 when a report was removed, else 0.
`,
  keys: ['workers', 'workers_seen'],
  body: `
redis.call('ZREM', K_WORKERS_SEEN, ARGV[1])
return redis.call('HDEL', K_WORKERS, ARGV[1])
`,
});
