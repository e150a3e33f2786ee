import { CLAIM_ROW_TAIL, CLAIMED_FIELDS } from '../claimed-fields.js';
import { defineLuaScript } from '../lua-script.js';
import { BULK_WRITE } from './includes/bulk-write.lua.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** How many lapsed or due rows one claim moves to ready per queue and index (bounds the script's run time). */
export const CLAIM_PROMOTE_MAX = 1000;

/** Takes up to N due rows of unpaused queues in one atomic step. */
export const CLAIM_SCRIPT = defineLuaScript({
  name: 'claim',
  contract: `
Claims up to ARGV[1] rows across the queues ARGV[6..], skipping paused ones. Per queue it first
moves to ready, up to ${CLAIM_PROMOTE_MAX} each, delayed and suspended rows whose runAt has passed.
Running rows whose lease lapsed (up to ${CLAIM_PROMOTE_MAX} per queue) join the candidates as they
are: a lapsed row keeps its state and token until a claim takes it, so its old holder's settles
land until then, as on every driver (an attempt it started stays counted). It then takes the
head of every ready set, merges them with the lapsed rows (priority desc, runAt, enqueue
sequence) and marks the first
N running under a fresh token with leaseExpiresAt = now + ARGV[2] and startedAt emptied: a
claim counts no attempt (the start script does, and sets startedAt), except on its first ARGV[5]
rows, which it starts as the start script would (attempts + 1, startedAt = now) — a row whose
attempts reached maxAttempts is never started, so attempts never pass the cap. One HMGET and
one HSET per row; each queue's ready and running sets are written once; the merge sort is
skipped when only one queue has ready rows, its head being in order already.
KEYS[1] base    ready:<q>, delayed:<q>, suspended:<q>, running:<q>, job:<id> are built from it
KEYS[2] paused  set of paused queues
ARGV[1] limit (positive integer)     ARGV[2] visibility timeout ms
ARGV[3] worker id                    ARGV[4] token nonce (unique per call; token = nonce:i)
ARGV[5] how many of the claimed rows to start (0 = none)
ARGV[6..] queue names (distinct)
Returns: { leaseExpiresAt, rows } where rows is a JSON array (cjson) with one array per claimed
row: the job-hash values of ${CLAIMED_FIELDS.join(', ')} (attempts as started before this
claim; an absent field is false), then ${CLAIM_ROW_TAIL.join(', ')} (started: '1' when this claim
started the row, else '0'). One JSON string instead of a reply element per value keeps the
client's reply parsing to one string per claim.

At the memory limit (maxmemory under noeviction) the claim still runs: its first write takes the
claimed rows out of their ready sets (or, before that, moves due rows between sets, removing
first), and Redis refuses a script's memory-growing write only while the script has written
nothing. The rows' fields are overwritten in place; no row is added.
`,
  keys: ['base', 'paused'],
  includes: [SERVER_NOW, JOB_ROW, BULK_WRITE],
  body: `
local limit = tonumber(ARGV[1])
local visibility = tonumber(ARGV[2])
local worker, nonce = ARGV[3], ARGV[4]
local start_first = tonumber(ARGV[5])
local PROMOTE_MAX = ${CLAIM_PROMOTE_MAX}

-- Running rows of a queue whose lease lapsed, as ready-shaped candidates (member and score as a
-- ready row of theirs would have), appended to 'lapsed' as a flat member/score/queue list.
local lapsed = {}
local function lapsed_candidates(queue)
  local ids = redis.call('ZRANGEBYSCORE', state_key('running', queue), '-inf', now, 'LIMIT', 0, PROMOTE_MAX)
  for _, id in ipairs(ids) do
    local row = load_row(id)
    if row == nil or row.state ~= 'running' then
      redis.call('ZREM', state_key('running', queue), id)
    else
      lapsed[#lapsed + 1] = ready_member(row.run_at, row.seq, id)
      lapsed[#lapsed + 1] = -row.priority
      lapsed[#lapsed + 1] = queue
    end
  end
end

-- The head of each unpaused queue's ready set: { queue, flat member/score list }. With one queue
-- its head is already in claim order and needs no scores (formatting them is not free).
local single = #ARGV == 6
local heads = {}
for i = 6, #ARGV do
  local queue = ARGV[i]
  if redis.call('SISMEMBER', K_PAUSED, queue) == 0 then
    promote_due(state_key('delayed', queue), now, PROMOTE_MAX)
    promote_due(state_key('suspended', queue), now, PROMOTE_MAX)
    lapsed_candidates(queue)
    local head
    if single and #lapsed == 0 then
      head = redis.call('ZRANGE', state_key('ready', queue), 0, limit - 1)
    else
      head = redis.call('ZRANGE', state_key('ready', queue), 0, limit - 1, 'WITHSCORES')
    end
    if #head > 0 then heads[#heads + 1] = { queue = queue, head = head } end
  end
end
-- Lapsed running rows compete with the ready heads: the fast single-queue path needs a ready head alone.
if #lapsed > 0 then
  single = false
  heads[#heads + 1] = { lapsed = true, head = lapsed }
end

-- Candidates in claim order as parallel lists (member, queue).
local members, queues = {}, {}
if single and #heads == 1 then
  members = heads[1].head
  for j = 1, #members do queues[j] = heads[1].queue end
elseif #heads == 1 and not heads[1].lapsed then
  local head, queue = heads[1].head, heads[1].queue
  for j = 1, #head, 2 do
    members[#members + 1] = head[j]
    queues[#queues + 1] = queue
  end
elseif #heads >= 1 then
  local candidates = {}
  for _, h in ipairs(heads) do
    if h.lapsed then
      for j = 1, #h.head, 3 do
        candidates[#candidates + 1] = { member = h.head[j], score = h.head[j + 1], queue = h.head[j + 2] }
      end
    else
      for j = 1, #h.head, 2 do
        candidates[#candidates + 1] = { member = h.head[j], score = tonumber(h.head[j + 1]), queue = h.queue }
      end
    end
  end
  table.sort(candidates, function(a, b)
    if a.score ~= b.score then return a.score < b.score end
    return a.member < b.member
  end)
  for n = 1, math.min(limit, #candidates) do
    members[n] = candidates[n].member
    queues[n] = candidates[n].queue
  end
end

local out = {}
local lease = now + visibility
-- The lease written as a string formatted once per call: Lua would format it with '%.14g' per row.
local lease_s = string.format('%d', lease)
local now_s = string.format('%d', now)
local taken, running = {}, {}
local ATTEMPTS = ${CLAIMED_FIELDS.indexOf('attempts') + 1}
local MAX_ATTEMPTS = ${CLAIMED_FIELDS.indexOf('maxAttempts') + 1}
local count = math.min(limit, #members)
local ready_keys, running_keys = {}, {}
for n = 1, count do
  local queue = queues[n]
  if ready_keys[queue] == nil then
    ready_keys[queue] = state_key('ready', queue)
    running_keys[queue] = state_key('running', queue)
  end
end
-- The taken rows leave their ready sets before anything is written: at the memory limit this
-- first write frees, so the writes after it run (see the contract).
if single and count > 0 then
  -- One queue: what is taken is exactly the head read above, the first #members by rank.
  redis.call('ZREMRANGEBYRANK', ready_keys[queues[1]], 0, count - 1)
elseif count > 0 then
  for n = 1, count do bulk_add(taken, ready_keys[queues[n]], members[n]) end
  bulk_flush('ZREM', taken, 1)
end
for n = 1, count do
  local member, queue = members[n], queues[n]
  local id = id_of_ready_member(member)
  local key = job_key(id)
  local row = redis.call('HMGET', key, ${CLAIMED_FIELDS.map((field) => `'${field}'`).join(', ')})
  if row[1] then -- a ready member whose row is gone is only dropped
    local token = string.format('%s:%d', nonce, n)
    local started = '0'
    if #out < start_first and tonumber(row[ATTEMPTS]) < tonumber(row[MAX_ATTEMPTS]) then
      started = '1'
      redis.call('HSET', key, 'state', 'running', 'token', token, 'workerId', worker,
        'startedAt', now_s, 'leaseExpiresAt', lease_s, 'attempts', tonumber(row[ATTEMPTS]) + 1)
    else
      redis.call('HSET', key, 'state', 'running', 'token', token,
        'workerId', worker, 'startedAt', '', 'leaseExpiresAt', lease_s)
    end
    row[${CLAIMED_FIELDS.length + 1}], row[${CLAIMED_FIELDS.length + 2}], row[${CLAIMED_FIELDS.length + 3}] = id, queue, token
    row[${CLAIMED_FIELDS.length + 4}] = started
    bulk_add(running, running_keys[queue], lease_s, id)
    out[#out + 1] = row
  end
end
bulk_flush('ZADD', running, 2)
if #out == 0 then return { lease, '[]' } end
return { lease, cjson.encode(out) }
`,
});
