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
future (server clock), else 'ready'; each queue that got work is woken once. One HSET per new row;
the dedupe hash, the listing and each queue's ready/delayed set are written once per call.
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
Returns: one {id, runId, deduped 0|1} per request, in order.
Errors: 'XJ_DUPLICATE <i>' when request i meets a live row under onConflict 'error'; nothing is
written then.
`,
  keys: ['base', 'seq', 'dedupe', 'jobs', 'queues'],
  includes: [SERVER_NOW, OPTIONAL_ARG, JOB_ROW, BULK_WRITE],
  body: `
local STRIDE = ${ENQUEUE_STRIDE}
local count = tonumber(ARGV[1])

-- The live row holding a dedupe field, or nil (a field whose row is gone is free).
local function live_holder(field)
  local id = redis.call('HGET', K_DEDUPE, field)
  if id and redis.call('EXISTS', job_key(id)) == 1 then return id end
  return nil
end

-- First pass: a duplicate under onConflict 'error' refuses the whole call before any write.
local seen = {}
for i = 1, count do
  local b = 1 + (i - 1) * STRIDE
  local field = ARGV[b + 14]
  if ARGV[b + 11] == 'error' and (seen[field] or live_holder(field) or redis.call('EXISTS', job_key(ARGV[b + 1])) == 1) then
    return redis.error_reply('XJ_DUPLICATE ' .. i)
  end
  seen[field] = true
end

local out = {}
local due = {}
local taken = {}    -- dedupe field -> id of a row written by this call
local dedupe, listing, ready, delayed = {}, {}, {}, {}
local seq = redis.call('INCRBY', K_SEQ, count) - count
for i = 1, count do
  local b = 1 + (i - 1) * STRIDE
  local id, run_id, queue, field = ARGV[b + 1], ARGV[b + 2], ARGV[b + 4], ARGV[b + 14]
  local holder = taken[field] or live_holder(field)
  if holder == nil and redis.call('EXISTS', job_key(id)) == 1 then holder = id end
  if holder then
    out[i] = { holder, redis.call('HGET', job_key(holder), 'runId'), 1 }
  else
    seq = seq + 1
    local run_at = now
    if ARGV[b + 9] ~= '' then run_at = tonumber(ARGV[b + 9]) end
    local state = 'ready'
    if run_at > now then state = 'delayed' end
    local fields = { 'id', id, 'runId', run_id, 'name', ARGV[b + 3], 'queue', queue,
      'payload', ARGV[b + 5], 'idempotencyKey', ARGV[b + 7], 'priority', ARGV[b + 8],
      'attempts', 0, 'maxAttempts', ARGV[b + 10], 'enqueuedAt', now, 'seq', seq, 'dedupe', field,
      'state', state, 'runAt', run_at }
    local optional = { tenantId = opt(ARGV[b + 6]), enqueuedBy = opt(ARGV[b + 12]), traceparent = opt(ARGV[b + 13]) }
    for name, value in pairs(optional) do
      fields[#fields + 1] = name
      fields[#fields + 1] = value
    end
    redis.call('HSET', job_key(id), unpack(fields))
    taken[field] = id
    bulk_add(dedupe, K_DEDUPE, field, id)
    bulk_add(listing, K_JOBS, seq, id)
    if state == 'delayed' then
      bulk_add(delayed, state_key('delayed', queue), run_at, id)
    else
      bulk_add(ready, state_key('ready', queue), -tonumber(ARGV[b + 8]), ready_member(run_at, seq, id))
    end
    local at = math.max(run_at, now)
    if due[queue] == nil or at < due[queue] then due[queue] = at end
    out[i] = { id, run_id, 0 }
  end
end
bulk_flush('HSET', dedupe, 2)
bulk_flush('ZADD', listing, 2)
bulk_flush('ZADD', ready, 2)
bulk_flush('ZADD', delayed, 2)
for queue, at in pairs(due) do
  redis.call('SADD', K_QUEUES, queue)
  wake(queue, at)
end
return out
`,
});
