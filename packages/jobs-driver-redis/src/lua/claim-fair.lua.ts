import { CLAIM_ROW_TAIL, CLAIMED_FIELDS } from '../claimed-fields.js';
import { defineLuaScript } from '../lua-script.js';
import { CLAIM_PROMOTE_MAX } from './claim.lua.js';
import { BULK_WRITE } from './includes/bulk-write.lua.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** The claim of a queue with `fairness: 'tenant'`: up to N due rows in the fair order, atomically. */
export const CLAIM_FAIR_SCRIPT = defineLuaScript({
  name: 'claim-fair',
  contract: `
Claims up to ARGV[1] rows of the one queue ARGV[6] (nothing while it is paused) in the fair order
of fairness: 'tenant': a tenant (no tenant is '') holding h rows of the queue (running under an
unexpired lease) has its due rows ranked 1, 2, 3 ... by (priority desc, runAt, enqueue sequence),
its row of rank k gets the turn h + k, and rows are taken by turn, then that order.
The first call on a queue adds it to the fair set and files its ready rows in per-tenant mirror
sets (fair-ready:<len>:<queue>:<tenant>, same score and member as ready:<queue>; tenants listed in
fair-tenants:<queue>); from then on enqueue and every move to ready (place_ready) keep the
mirrors. A mirrored member the ready set no longer has (claimed by the default claim script,
cancelled, removed) is dropped when met. Then, as the claim script: delayed and suspended rows
past runAt move to ready (up to ${CLAIM_PROMOTE_MAX} each); running rows whose lease lapsed (up to
${CLAIM_PROMOTE_MAX}) are candidates of their tenant as they are. Held rows are counted from
running:<queue> (one HMGET per running row), candidates read from each tenant's mirror head (at
most ARGV[1] live members per tenant), so a call costs O(running rows + tenants + N log N).
Chosen rows are marked running under a fresh token with leaseExpiresAt = now + ARGV[2] and
startedAt emptied; the first ARGV[5] in fair order are started (attempts + 1, startedAt = now).
KEYS[1] base    ready:<q>, delayed:<q>, suspended:<q>, running:<q>, job:<id>, fair, fair-tenants:<q>,
                fair-ready:<len>:<q>:<tenant> are built from it
KEYS[2] paused  set of paused queues
ARGV[1] limit (positive integer)     ARGV[2] visibility timeout ms
ARGV[3] worker id                    ARGV[4] token nonce (unique per call; token = nonce:i)
ARGV[5] how many of the claimed rows to start (0 = none)
ARGV[6] the queue
Returns: { leaseExpiresAt, rows } as the claim script, rows in fair order: a JSON array with one
array per row, the job-hash values of ${CLAIMED_FIELDS.join(', ')}, then
${CLAIM_ROW_TAIL.join(', ')}.

At the memory limit (maxmemory under noeviction) it still runs: its first write takes the claimed
rows out of their ready sets and mirrors (a lapsed row out of its running index, re-entered with
the new lease), and Redis refuses a script's memory-growing write only while the script has
written nothing. The queue's first fair claim (filing its mirrors) is the one exception.
`,
  keys: ['base', 'paused'],
  includes: [SERVER_NOW, JOB_ROW, BULK_WRITE],
  body: `
local limit = tonumber(ARGV[1])
local visibility = tonumber(ARGV[2])
local worker, nonce = ARGV[3], ARGV[4]
local start_first = tonumber(ARGV[5])
local queue = ARGV[6]
local PROMOTE_MAX = ${CLAIM_PROMOTE_MAX}
local lease = now + visibility
if redis.call('SISMEMBER', K_PAUSED, queue) == 1 then return { lease, '[]' } end

local ready_key = state_key('ready', queue)
local running_key = state_key('running', queue)
local tenants_key = fair_tenants_key(queue)

-- The first fair claim of the queue turns its mirrors on, filing the ready rows it already has.
-- (Read first: an SADD of a member already there is still a write Redis refuses at the memory limit.)
if redis.call('SISMEMBER', fair_queues_key(), queue) == 0 then
  redis.call('SADD', fair_queues_key(), queue)
  local ready = redis.call('ZRANGE', ready_key, 0, -1, 'WITHSCORES')
  for j = 1, #ready, 2 do
    local member = ready[j]
    local tenant = redis.call('HGET', job_key(id_of_ready_member(member)), 'tenantId') or ''
    redis.call('ZADD', fair_ready_key(queue, tenant), ready[j + 1], member)
    redis.call('SADD', tenants_key, tenant)
  end
end

promote_due(state_key('delayed', queue), now, PROMOTE_MAX)
promote_due(state_key('suspended', queue), now, PROMOTE_MAX)

-- Candidates per tenant: { member, score, lapsed }. Held rows per tenant.
local candidates, held = {}, {}
local function add_candidate(tenant, member, score, lapsed)
  local list = candidates[tenant]
  if list == nil then
    list = {}
    candidates[tenant] = list
  end
  list[#list + 1] = { member = member, score = score, lapsed = lapsed }
end

for _, id in ipairs(redis.call('ZRANGEBYSCORE', running_key, '(' .. now, '+inf')) do
  local f = redis.call('HMGET', job_key(id), 'state', 'tenantId')
  if f[1] == 'running' then
    local tenant = f[2] or ''
    held[tenant] = (held[tenant] or 0) + 1
  end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', running_key, '-inf', now, 'LIMIT', 0, PROMOTE_MAX)) do
  local row = load_row(id)
  if row == nil or row.state ~= 'running' then
    redis.call('ZREM', running_key, id)
  else
    local tenant = redis.call('HGET', job_key(id), 'tenantId') or ''
    add_candidate(tenant, ready_member(row.run_at, row.seq, id), -row.priority, true)
  end
end

-- Each tenant's mirror head: at most limit members the ready set still has; stale ones dropped.
for _, tenant in ipairs(redis.call('SMEMBERS', tenants_key)) do
  local key = fair_ready_key(queue, tenant)
  local found, offset = 0, 0
  while found < limit do
    local head = redis.call('ZRANGE', key, offset, offset + limit - 1, 'WITHSCORES')
    if #head == 0 then break end
    local stale = {}
    for j = 1, #head, 2 do
      if found < limit then
        if redis.call('ZSCORE', ready_key, head[j]) then
          add_candidate(tenant, head[j], tonumber(head[j + 1]), false)
          found = found + 1
          offset = offset + 1
        else
          stale[#stale + 1] = head[j]
        end
      end
    end
    if #stale > 0 then redis.call('ZREM', key, unpack(stale)) end
  end
  if redis.call('EXISTS', key) == 0 then redis.call('SREM', tenants_key, tenant) end
end

local function before(a, b)
  if a.score ~= b.score then return a.score < b.score end
  return a.member < b.member
end
local turned = {}
for tenant, list in pairs(candidates) do
  table.sort(list, before)
  local base = held[tenant] or 0
  for k = 1, math.min(#list, limit) do
    local c = list[k]
    c.turn = base + k
    c.tenant = tenant
    turned[#turned + 1] = c
  end
end
table.sort(turned, function(a, b)
  if a.turn ~= b.turn then return a.turn < b.turn end
  return before(a, b)
end)

local out = {}
local lease_s = string.format('%d', lease)
local now_s = string.format('%d', now)
local taken, mirrored, running, relet = {}, {}, {}, {}
local ATTEMPTS = ${CLAIMED_FIELDS.indexOf('attempts') + 1}
local count = math.min(limit, #turned)
-- The taken rows leave their ready sets and mirrors (a lapsed one its running index, which it
-- re-enters below with its new lease) before anything is written: at the memory limit this
-- first write frees, so the writes after it run (see the contract).
for n = 1, count do
  local c = turned[n]
  if c.lapsed then
    bulk_add(relet, running_key, id_of_ready_member(c.member))
  else
    bulk_add(taken, ready_key, c.member)
    bulk_add(mirrored, fair_ready_key(queue, c.tenant), c.member)
  end
end
bulk_flush('ZREM', taken, 1)
bulk_flush('ZREM', mirrored, 1)
bulk_flush('ZREM', relet, 1)
for n = 1, count do
  local c = turned[n]
  local id = id_of_ready_member(c.member)
  local key = job_key(id)
  local row = redis.call('HMGET', key, ${CLAIMED_FIELDS.map((field) => `'${field}'`).join(', ')})
  if row[1] then
    local token = string.format('%s:%d', nonce, n)
    local started = '0'
    if #out < start_first then
      started = '1'
      redis.call('HSET', key, 'state', 'running', 'token', token, 'workerId', worker,
        'startedAt', now_s, 'leaseExpiresAt', lease_s, 'attempts', tonumber(row[ATTEMPTS]) + 1)
    else
      redis.call('HSET', key, 'state', 'running', 'token', token,
        'workerId', worker, 'startedAt', '', 'leaseExpiresAt', lease_s)
    end
    row[${CLAIMED_FIELDS.length + 1}], row[${CLAIMED_FIELDS.length + 2}], row[${CLAIMED_FIELDS.length + 3}] = id, queue, token
    row[${CLAIMED_FIELDS.length + 4}] = started
    bulk_add(running, running_key, lease_s, id)
    out[#out + 1] = row
  end
end
bulk_flush('ZADD', running, 2)
if #out == 0 then return { lease, '[]' } end
return { lease, cjson.encode(out) }
`,
});
