import { CLAIMED_FIELDS, type ClaimedField } from '../claimed-fields.js';
import { defineLuaScript } from '../lua-script.js';
import { BULK_WRITE } from './includes/bulk-write.lua.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** How many lapsed or due rows one claim moves to ready per queue and index (bounds the script's run time). */
const CLAIM_PROMOTE_MAX = 1000;

/** The 1-based position of a field in the claim's HMGET reply (a Lua table index). */
const claimedIndex = (field: ClaimedField): number => CLAIMED_FIELDS.indexOf(field) + 1;

/** Takes up to N due rows of unpaused queues in one atomic step. */
export const CLAIM_SCRIPT = defineLuaScript({
  name: 'claim',
  contract: `
Claims up to ARGV[1] rows across the queues ARGV[5..], skipping paused ones. Per queue it first
moves to ready, up to ${CLAIM_PROMOTE_MAX} each: running rows whose lease lapsed (the attempt they
counted stays counted), then delayed and suspended rows whose runAt has passed. It then takes the
head of every ready set, merges them (priority desc, runAt, enqueue sequence) and marks the first
N running under a fresh token with leaseExpiresAt = now + ARGV[2], counting one attempt each
(one HMGET and one HSET per row; each queue's ready and running sets are written once).
KEYS[1] base    ready:<q>, delayed:<q>, suspended:<q>, running:<q>, job:<id> are built from it
KEYS[2] paused  set of paused queues
ARGV[1] limit (positive integer)     ARGV[2] visibility timeout ms
ARGV[3] worker id                    ARGV[4] token nonce (unique per call; token = nonce:i)
ARGV[5..] queue names (distinct)
Returns: one array per claimed row, the job-hash values of ${CLAIMED_FIELDS.join(', ')}.
`,
  keys: ['base', 'paused'],
  includes: [SERVER_NOW, JOB_ROW, BULK_WRITE],
  body: `
local limit = tonumber(ARGV[1])
local visibility = tonumber(ARGV[2])
local worker, nonce = ARGV[3], ARGV[4]
local PROMOTE_MAX = ${CLAIM_PROMOTE_MAX}

local function promote(index, max_score)
  local ids = redis.call('ZRANGEBYSCORE', index, '-inf', max_score, 'LIMIT', 0, PROMOTE_MAX)
  for _, id in ipairs(ids) do
    local row = load_row(id)
    if row == nil then
      redis.call('ZREM', index, id)
    else
      if row.state == 'running' then redis.call('HDEL', job_key(id), 'token', 'leaseExpiresAt') end
      unindex(row)
      place_ready(row, row.run_at)
    end
  end
end

local candidates = {}
for i = 5, #ARGV do
  local queue = ARGV[i]
  if redis.call('SISMEMBER', K_PAUSED, queue) == 0 then
    promote(state_key('running', queue), now)
    promote(state_key('delayed', queue), now)
    promote(state_key('suspended', queue), now)
    local head = redis.call('ZRANGE', state_key('ready', queue), 0, limit - 1, 'WITHSCORES')
    for j = 1, #head, 2 do
      candidates[#candidates + 1] = { member = head[j], score = tonumber(head[j + 1]), queue = queue }
    end
  end
end
table.sort(candidates, function(a, b)
  if a.score ~= b.score then return a.score < b.score end
  return a.member < b.member
end)

local out = {}
local lease = now + visibility
local taken, running = {}, {}
for n = 1, math.min(limit, #candidates) do
  local c = candidates[n]
  local id = id_of_ready_member(c.member)
  local token = nonce .. ':' .. n
  local row = redis.call('HMGET', job_key(id), ${CLAIMED_FIELDS.map((field) => `'${field}'`).join(', ')})
  bulk_add(taken, state_key('ready', c.queue), c.member)
  if row[1] then -- a ready member whose row is gone is only dropped
    local attempts = tonumber(row[${claimedIndex('attempts')}]) + 1
    redis.call('HSET', job_key(id), 'state', 'running', 'attempts', attempts, 'token', token,
      'workerId', worker, 'startedAt', now, 'leaseExpiresAt', lease)
    row[${claimedIndex('attempts')}] = attempts
    row[${claimedIndex('token')}] = token
    row[${claimedIndex('workerId')}] = worker
    row[${claimedIndex('leaseExpiresAt')}] = lease
    bulk_add(running, state_key('running', c.queue), lease, id)
    out[#out + 1] = row
  end
end
bulk_flush('ZREM', taken, 1)
bulk_flush('ZADD', running, 2)
return out
`,
});
