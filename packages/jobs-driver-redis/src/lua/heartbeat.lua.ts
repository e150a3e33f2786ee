import { defineLuaScript } from '../lua-script.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Extends a running row's lease, fenced on its claim token. */
export const HEARTBEAT_SCRIPT = defineLuaScript({
  name: 'heartbeat',
  contract: `
Extends the lease to now + ARGV[3] when the row is running under the token.
KEYS[1] base    job:<id>, running:<q> are built from it
ARGV[1] job id    ARGV[2] claim token    ARGV[3] visibility timeout ms
Returns: 1 when extended, 0 when the claim no longer holds the row (cancelled, reclaimed, settled).

At the memory limit (maxmemory under noeviction) it still runs: its first write takes the row out
of the running index it then re-enters with the new deadline, and Redis refuses a script's
memory-growing write only while the script has written nothing. Nothing grows.
`,
  keys: ['base'],
  includes: [SERVER_NOW, JOB_ROW],
  body: `
local row = fenced_row(ARGV[1], ARGV[2])
if row == nil then return 0 end
local lease = now + tonumber(ARGV[3])
local running_key = state_key('running', row.queue)
redis.call('ZREM', running_key, row.id)
redis.call('HSET', job_key(row.id), 'leaseExpiresAt', lease)
redis.call('ZADD', running_key, lease, row.id)
return 1
`,
});
