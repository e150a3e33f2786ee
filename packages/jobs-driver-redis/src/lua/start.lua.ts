import { defineLuaScript } from '../lua-script.js';
import { BULK_WRITE } from './includes/bulk-write.lua.js';
import { KEY_FUNCTIONS } from './includes/key-functions.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Fields per start in the start script's ARGV. */
const START_STRIDE = 3;

/** Counts the attempt of many claims whose bodies are about to run, each fenced on its own token. */
export const START_SCRIPT = defineLuaScript({
  name: 'start',
  contract: `
The start of each (id, token, visibility) in turn: a row running under its token whose startedAt
is empty (the claim empties it) counts one attempt, gets startedAt = now (the mark a release or
suspend reads to hand the attempt back) and its lease extended to now + visibility ms. Any other
row (claim lost, already started) is left as it is. Each queue's running index is written once.
KEYS[1] base    job:<id>, running:<q> are built from it
ARGV: ${START_STRIDE} fields per start i (b = (i-1)*${START_STRIDE}):
  ARGV[b+1] job id    ARGV[b+2] claim token    ARGV[b+3] visibility timeout ms
Returns: one string with a character per start, in order: '1' started, '0' the claim no longer
holds the row, already started it, or the row's attempts reached maxAttempts (never counted past
the cap).

At the memory limit (maxmemory under noeviction) it still runs: each start first deletes the
emptied startedAt mark it then writes, and Redis refuses a script's memory-growing write only
while the script has written nothing. The fields are overwritten in place; no row is added.
`,
  keys: ['base'],
  includes: [SERVER_NOW, KEY_FUNCTIONS, BULK_WRITE],
  body: `
local STRIDE = ${START_STRIDE}
local now_s = string.format('%d', now)
local out = {}
local running = {}
for i = 1, #ARGV / STRIDE do
  local b = (i - 1) * STRIDE
  local id = ARGV[b + 1]
  local key = job_key(id)
  local f = redis.call('HMGET', key, 'state', 'token', 'startedAt', 'queue', 'attempts', 'maxAttempts')
  if f[1] == 'running' and f[2] == ARGV[b + 2] and (not f[3] or f[3] == '')
    and tonumber(f[5]) < tonumber(f[6]) then
    local lease_s = string.format('%d', now + tonumber(ARGV[b + 3]))
    redis.call('HDEL', key, 'startedAt')
    redis.call('HSET', key, 'attempts', tonumber(f[5]) + 1, 'startedAt', now_s, 'leaseExpiresAt', lease_s)
    bulk_add(running, state_key('running', f[4]), lease_s, id)
    out[i] = '1'
  else
    out[i] = '0'
  end
end
bulk_flush('ZADD', running, 2)
return table.concat(out)
`,
});
