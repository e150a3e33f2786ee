import { defineLuaScript } from '../lua-script.js';
import { BULK_WRITE } from './includes/bulk-write.lua.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { OPTIONAL_ARG } from './includes/optional-arg.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Fields per request in the enqueue script's ARGV, after the count. */
const ENQUEUE_STRIDE = 14;

/** Writes one or many job rows with live-only dedupe, in one atomic step. */
export const ENQUEUE_SCRIPT = defineLuaScript({
  name: 'enqueue',
  contract: `
Writes job rows unless a live row holds their (name, tenant, key) or a row already has their id.
A key repeated inside the call dedupes to the first. A new row is 'delayed' when runAt is in the
future (server clock), else 'ready'; each queue that got work is woken once. A ready row of a
queue in the fair set (fairness: 'tenant') is also filed in its tenant's mirror set. One HSET per new row;
the dedupe hash is read once and written once per call, as are the listing and each queue's
ready/delayed set.
KEYS[1] base    the hash-tagged prefix; job:<id>, ready:<q>, delayed:<q> are built from it
KEYS[2] seq     enqueue sequence counter
KEYS[3] dedupe  hash: dedupe field -> live row id
KEYS[4] jobs    sorted set: id by sequence
KEYS[5] queues  set of queue names
ARGV[1] n, the number of requests; then ${ENQUEUE_STRIDE} fields per request i (b = 1 + (i-1)*${ENQUEUE_STRIDE}):
  ARGV[b+1] id            ARGV[b+2] runId        ARGV[b+3] name        ARGV[b+4] queue
  ARGV[b+5] payload JSON  ARGV[b+6] tenantId (optional)                ARGV[b+7] idempotencyKey
  ARGV[b+8] priority      ARGV[b+9] runAt epoch ms ('' = now)          ARGV[b+10] maxAttempts
  ARGV[b+11] onConflict ('dedupe' | 'error')    ARGV[b+12] enqueuedBy (optional)
  ARGV[b+13] traceparent (optional)             ARGV[b+14] dedupe field
Returns: a flat list with three values per request that was deduped (i, the holder's id, its
runId), in request order; a request not in it wrote its own row (empty when none was deduped).
Errors: 'XJ_DUPLICATE <i>' when request i meets a live row under onConflict 'error'; nothing is
written then.
`,
  keys: ['base', 'seq', 'dedupe', 'jobs', 'queues'],
  includes: [SERVER_NOW, OPTIONAL_ARG, JOB_ROW, BULK_WRITE],
  body: `
local STRIDE = ${ENQUEUE_STRIDE}
local count = tonumber(ARGV[1])

-- The ready score of a priority given as a decimal string: its negation, as a string.
local function negated(priority)
  if string.sub(priority, 1, 1) == '-' then return string.sub(priority, 2) end
  return '-' .. priority
end

-- The dedupe hash's entry for every request, read with one HMGET (per 4,000): nothing in this
-- script writes the hash before its last lines, and keys repeated inside the call are tracked.
local entries = {}
do
  local fields = {}
  for i = 1, count do fields[i] = ARGV[1 + (i - 1) * STRIDE + 14] end
  for first = 1, count, 4000 do
    local last = math.min(first + 3999, count)
    local got = redis.call('HMGET', K_DEDUPE, unpack(fields, first, last))
    for k = first, last do entries[k] = got[k - first + 1] end
  end
end

-- The live row holding request i's dedupe field, or nil (a field whose row is gone is free).
local function live_holder(i)
  local id = entries[i]
  if id and redis.call('EXISTS', job_key(id)) == 1 then return id end
  return nil
end

-- First pass: a duplicate under onConflict 'error' refuses the whole call before any write.
local seen = {}
for i = 1, count do
  local b = 1 + (i - 1) * STRIDE
  local field = ARGV[b + 14]
  if ARGV[b + 11] == 'error' and (seen[field] or live_holder(i) or redis.call('EXISTS', job_key(ARGV[b + 1])) == 1) then
    return redis.error_reply('XJ_DUPLICATE ' .. i)
  end
  seen[field] = true
end

-- Whether a queue claims fairly (in the fair set): its ready rows are mirrored per tenant too.
local fair_cache = {}
local function is_fair(queue)
  local fair = fair_cache[queue]
  if fair == nil then
    fair = redis.call('SISMEMBER', fair_queues_key(), queue) == 1
    fair_cache[queue] = fair
  end
  return fair
end

local out = {}
local due = {}
local fair_ready, fair_tenants = {}, {}
local taken = {}    -- dedupe field -> id of a row written by this call
local dedupe, listing, ready, delayed = {}, {}, {}, {}
local seq = redis.call('INCRBY', K_SEQ, count) - count
-- Numbers are written as strings formatted once (now) or as integers ('%d'): Lua's own
-- number-to-string ('%.14g') per field and row was a tenth of the script's time.
local now_s = string.format('%d', now)
for i = 1, count do
  local b = 1 + (i - 1) * STRIDE
  local id, run_id, queue, field = ARGV[b + 1], ARGV[b + 2], ARGV[b + 4], ARGV[b + 14]
  local holder = taken[field] or live_holder(i)
  if holder == nil and redis.call('EXISTS', job_key(id)) == 1 then holder = id end
  if holder then
    out[#out + 1] = i
    out[#out + 1] = holder
    out[#out + 1] = redis.call('HGET', job_key(holder), 'runId')
  else
    seq = seq + 1
    local seq_s = string.format('%d', seq)
    local run_at, run_at_s = now, now_s
    if ARGV[b + 9] ~= '' then run_at, run_at_s = tonumber(ARGV[b + 9]), ARGV[b + 9] end
    local state = 'ready'
    if run_at > now then state = 'delayed' end
    -- The fields a claim reads come first, in its order: a hash this small is a listpack,
    -- searched from its head for every field read.
    local fields = { 'state', state, 'runId', run_id, 'name', ARGV[b + 3], 'payload', ARGV[b + 5] }
    local tenant_id, enqueued_by, traceparent = opt(ARGV[b + 6]), opt(ARGV[b + 12]), opt(ARGV[b + 13])
    if tenant_id then
      fields[9] = 'tenantId'
      fields[10] = tenant_id
    end
    local n = #fields
    fields[n + 1], fields[n + 2] = 'idempotencyKey', ARGV[b + 7]
    fields[n + 3], fields[n + 4] = 'priority', ARGV[b + 8]
    fields[n + 5], fields[n + 6] = 'attempts', '0'
    fields[n + 7], fields[n + 8] = 'maxAttempts', ARGV[b + 10]
    fields[n + 9], fields[n + 10] = 'enqueuedAt', now_s
    fields[n + 11], fields[n + 12] = 'runAt', run_at_s
    n = n + 12
    if enqueued_by then
      fields[n + 1], fields[n + 2] = 'enqueuedBy', enqueued_by
      n = n + 2
    end
    if traceparent then
      fields[n + 1], fields[n + 2] = 'traceparent', traceparent
      n = n + 2
    end
    fields[n + 1], fields[n + 2] = 'queue', queue
    fields[n + 3], fields[n + 4] = 'dedupe', field
    fields[n + 5], fields[n + 6] = 'id', id
    fields[n + 7], fields[n + 8] = 'seq', seq_s
    -- Until a step is saved (step-save deletes it): lets the ack skip expiring a steps hash that
    -- does not exist.
    fields[n + 9], fields[n + 10] = 'noSteps', '1'
    redis.call('HSET', job_key(id), unpack(fields))
    taken[field] = id
    bulk_add(dedupe, K_DEDUPE, field, id)
    bulk_add(listing, K_JOBS, seq_s, id)
    if state == 'delayed' then
      bulk_add(delayed, state_key('delayed', queue), run_at_s, id)
    else
      local member = ready_member(run_at, seq, id)
      bulk_add(ready, state_key('ready', queue), negated(ARGV[b + 8]), member)
      if is_fair(queue) then
        bulk_add(fair_ready, fair_ready_key(queue, tenant_id or ''), negated(ARGV[b + 8]), member)
        bulk_add(fair_tenants, fair_tenants_key(queue), tenant_id or '')
      end
    end
    local at = math.max(run_at, now)
    if due[queue] == nil or at < due[queue] then due[queue] = at end
  end
end
bulk_flush('HSET', dedupe, 2)
bulk_flush('ZADD', listing, 2)
bulk_flush('ZADD', ready, 2)
bulk_flush('ZADD', delayed, 2)
bulk_flush('ZADD', fair_ready, 2)
bulk_flush('SADD', fair_tenants, 1)
for queue, at in pairs(due) do
  redis.call('SADD', K_QUEUES, queue)
  wake(queue, at)
end
return out
`,
});
