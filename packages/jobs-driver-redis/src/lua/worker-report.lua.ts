import { defineLuaScript } from '../lua-script.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Upserts a worker's report and forgets the lapsed ones. */
export const WORKER_REPORT_SCRIPT = defineLuaScript({
  name: 'worker-report',
  contract: `
Stores the report of worker ARGV[1], listed until ARGV[3], and deletes reports that lapsed.
KEYS[1] workers        hash: worker id -> report JSON
KEYS[2] workers_seen   sorted set: worker id by the time its report lapses
ARGV[1] worker id    ARGV[2] report JSON    ARGV[3] listed until epoch ms (lastSeenAt + ttl)
Returns: 1.
`,
  keys: ['workers', 'workers_seen'],
  includes: [SERVER_NOW],
  body: `
for _, id in ipairs(redis.call('ZRANGEBYSCORE', K_WORKERS_SEEN, '-inf', now)) do
  redis.call('HDEL', K_WORKERS, id)
  redis.call('ZREM', K_WORKERS_SEEN, id)
end
redis.call('HSET', K_WORKERS, ARGV[1], ARGV[2])
redis.call('ZADD', K_WORKERS_SEEN, ARGV[3], ARGV[1])
return 1
`,
});
