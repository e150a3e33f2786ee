import { defineLuaScript } from '../lua-script.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** The reports of workers seen within their TTL. */
export const WORKER_LIST_SCRIPT = defineLuaScript({
  name: 'worker-list',
  contract: `
Reads the reports whose listing time has not passed (read only).
KEYS[1] workers        hash: worker id -> report JSON
KEYS[2] workers_seen   sorted set: worker id by the time its report lapses
Returns: {report JSON, ...}.
`,
  keys: ['workers', 'workers_seen'],
  includes: [SERVER_NOW],
  body: `
local ids = redis.call('ZRANGEBYSCORE', K_WORKERS_SEEN, '(' .. string.format('%d', now), '+inf')
if #ids == 0 then return {} end
return redis.call('HMGET', K_WORKERS, unpack(ids))
`,
});
