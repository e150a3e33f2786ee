import { defineLuaScript } from '../lua-script.js';
import { DONE_RETENTION } from './includes/done-retention.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Per-queue counts, the oldest due row's age and the pause flag. */
export const STATS_SCRIPT = defineLuaScript({
  name: 'stats',
  contract: `
Answers, for every queue with a row or a pause flag, the row count per state, the age of the
oldest due row and whether it is paused. Done rows past the retention are trimmed first (up to
1000 per queue), so the counts do not include rows whose hash already expired.
The oldest due ready row: within one priority (one score) the first member has the earliest runAt,
so it reads the first member of each priority band (one ZRANGEBYSCORE per distinct priority),
plus the head of delayed and suspended when it is past its runAt.
KEYS[1] base    <state>:<q> are built from it
KEYS[2] jobs    sorted set: id by sequence (trimmed with the done rows)
KEYS[3] queues  set of queue names
KEYS[4] paused  set of paused queues
ARGV[1] done retention ms (0 keeps)
Returns: per queue {queue, paused 0|1, ready, delayed, running, suspended, done, dead, cancelled,
oldest due age ms or -1}.
`,
  keys: ['base', 'jobs', 'queues', 'paused'],
  includes: [SERVER_NOW, DONE_RETENTION],
  body: `
local retention = tonumber(ARGV[1])
local out = {}
for _, queue in ipairs(redis.call('SUNION', K_QUEUES, K_PAUSED)) do
  if retention > 0 then trim_done(queue, now - retention, 1000) end
  local oldest = nil
  local ready = state_key('ready', queue)
  local head = redis.call('ZRANGE', ready, 0, 0, 'WITHSCORES')
  while head[1] do
    local run_at = tonumber(string.sub(head[1], 1, 15))
    if oldest == nil or run_at < oldest then oldest = run_at end
    head = redis.call('ZRANGEBYSCORE', ready, '(' .. head[2], '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  end
  for _, state in ipairs({ 'delayed', 'suspended' }) do
    local first = redis.call('ZRANGE', state_key(state, queue), 0, 0, 'WITHSCORES')
    if first[2] and tonumber(first[2]) <= now and (oldest == nil or tonumber(first[2]) < oldest) then
      oldest = tonumber(first[2])
    end
  end
  local row = { queue, redis.call('SISMEMBER', K_PAUSED, queue) }
  for _, state in ipairs({ 'ready', 'delayed', 'running', 'suspended', 'done', 'dead', 'cancelled' }) do
    row[#row + 1] = redis.call('ZCARD', state_key(state, queue))
  end
  if oldest == nil then row[#row + 1] = -1 else row[#row + 1] = math.max(now - oldest, 0) end
  out[#out + 1] = row
end
return out
`,
});
