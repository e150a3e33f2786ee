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
of QueueOptions.fairness, over the service the queue gave: a tenant (no tenant is '') with counter s
(HGET fair-served:<queue> tenant, absent 0) and row cost c (ARGV[8] for the tenants named there,
else ARGV[7]) has its due rows ranked k = 1, 2, 3 ... by (priority desc, runAt, enqueue sequence);
its row of rank k gets the start tag max(s, clock) + (k - 1) * c, where clock is
GET fair-clock:<queue> (absent 0). Rows are taken by start tag, then a tenant's first row whose
counter lagged the clock, then that order. Each tenant served gets s = its last start tag + c;
the clock becomes the last start tag taken. (A script runs alone, so every claimer of the queue,
in any process, reads the counters the claim before it wrote.)
The first call on a queue adds it to the fair set and files its ready rows in per-tenant mirror
sets (fair-ready:<len>:<queue>:<tenant>, same score and member as ready:<queue>; tenants listed in
fair-tenants:<queue>); from then on enqueue and every move to ready (place_ready) keep the
mirrors. A mirrored member the ready set no longer has (claimed by the default claim script,
cancelled, removed) is dropped when met. Then, as the claim script: delayed and suspended rows
past runAt move to ready (up to ${CLAIM_PROMOTE_MAX} each); running rows whose lease lapsed (up to
${CLAIM_PROMOTE_MAX}) are candidates of their tenant as they are. Held rows are counted from
no row: candidates are read from each tenant's mirror head (at most ARGV[1] live members per
tenant), so a call costs O(tenants * N + N log N).
Chosen rows are marked running under a fresh token with leaseExpiresAt = now + ARGV[2] and
startedAt emptied; the first ARGV[5] in fair order are started (attempts + 1, startedAt = now).
KEYS[1] base    ready:<q>, delayed:<q>, suspended:<q>, running:<q>, job:<id>, fair, fair-tenants:<q>,
                fair-ready:<len>:<q>:<tenant>, fair-served:<q>, fair-clock:<q> are built from it
KEYS[2] paused  set of paused queues
ARGV[1] limit (positive integer)     ARGV[2] visibility timeout ms
ARGV[3] worker id                    ARGV[4] token nonce (unique per call; token = nonce:i)
ARGV[5] how many of the claimed rows to start (0 = none)
ARGV[6] the queue
ARGV[7] the row cost of a tenant not named in ARGV[8] (service units)
ARGV[8] JSON object: tenant -> row cost, for the weighted tenants
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
local default_cost = tonumber(ARGV[7])
local costs = cjson.decode(ARGV[8])
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

-- Candidates per tenant: { member, score, lapsed }.
local candidates = {}
local function add_candidate(tenant, member, score, lapsed)
  local list = candidates[tenant]
  if list == nil then
    list = {}
    candidates[tenant] = list
  end
  list[#list + 1] = { member = member, score = score, lapsed = lapsed }
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
local served_key, clock_key = fair_served_key(queue), fair_clock_key(queue)
local clock = tonumber(redis.call('GET', clock_key) or '0')
local turned = {}
for tenant, list in pairs(candidates) do
  table.sort(list, before)
  local counter = tonumber(redis.call('HGET', served_key, tenant) or '0')
  local base = math.max(counter, clock)
  local cost = tonumber(costs[tenant] or default_cost)
  for k = 1, math.min(#list, limit) do
    local c = list[k]
    c.tag = base + (k - 1) * cost
    c.lagged = k == 1 and counter < clock
    c.cost = cost
    c.tenant = tenant
    turned[#turned + 1] = c
  end
end
table.sort(turned, function(a, b)
  if a.tag ~= b.tag then return a.tag < b.tag end
  if a.lagged ~= b.lagged then return a.lagged end
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
-- The service given: each tenant served moves to its last start tag + its cost, the clock to the
-- last start tag taken (rows are taken in tag order).
if count > 0 then
  local served = {}
  for n = 1, count do
    local c = turned[n]
    served[c.tenant] = c.tag + c.cost
  end
  for tenant, value in pairs(served) do
    redis.call('HSET', served_key, tenant, string.format('%.0f', value))
  end
  redis.call('SET', clock_key, string.format('%.0f', turned[count].tag))
end
if #out == 0 then return { lease, '[]' } end
return { lease, cjson.encode(out) }
`,
});
