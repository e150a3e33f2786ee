import { luaFragment } from '../../lua-script.js';
import { KEY_FUNCTIONS } from './key-functions.lua.js';

/**
 * Reading a job row and moving it between the live indexes.
 *
 * Ready order: the `ready:<queue>` score is `-priority` (higher priority sorts first) and members
 * with one score sort bytewise, so the member `<runAt:15 digits>:<seq:15 digits>:<id>` breaks ties
 * by run time, then enqueue sequence: exact for any priority, no bits shared between the three.
 * Every other state index (`delayed`, `suspended`, `running`, `done`, `dead`, `cancelled`) is
 * scored by a time (run time, lease deadline, finish time) with the bare id as member.
 */
export const JOB_ROW = luaFragment({
  name: 'job-row',
  keys: ['base'],
  requires: [KEY_FUNCTIONS],
  lua: `
local function load_row(id)
  local f = redis.call('HMGET', job_key(id), 'state', 'queue', 'runAt', 'seq', 'priority',
    'waitingFor', 'dedupe', 'runId', 'token', 'startedAt')
  if not f[1] then return nil end
  return { id = id, state = f[1], queue = f[2], run_at = tonumber(f[3]), seq = tonumber(f[4]),
    priority = tonumber(f[5]), waiting_for = f[6] or nil, dedupe = f[7] or nil, run_id = f[8],
    token = f[9] or nil, started_at = tonumber(f[10] or '') }
end

local function fenced_row(id, token)
  local row = load_row(id)
  if row == nil or row.state ~= 'running' or row.token ~= token then return nil end
  return row
end

local function ready_member(run_at, seq, id)
  return string.format('%015d:%015d:', math.max(run_at, 0), seq) .. id
end

local function id_of_ready_member(member) return string.sub(member, 33) end

local function is_terminal(state) return state == 'done' or state == 'dead' or state == 'cancelled' end

-- Removes the row from the index of its current state (and from its event's waiters).
local function unindex(row)
  if row.state == 'ready' then
    redis.call('ZREM', state_key('ready', row.queue), ready_member(row.run_at, row.seq, row.id))
  else
    redis.call('ZREM', state_key(row.state, row.queue), row.id)
  end
  if row.state == 'suspended' and row.waiting_for then
    redis.call('SREM', waiting_key(row.waiting_for), row.id)
    redis.call('HDEL', job_key(row.id), 'waitingFor')
  end
end

-- A queue in the fair set (fairness: 'tenant', see claim-fair) also files each ready row in its
-- tenant's mirror set, with the ready set's score and member. Rows leaving 'ready' are not
-- removed from the mirror here: the fair claim drops a mirrored member the ready set no longer has.
local function mirror_ready(queue, id, score, member)
  if redis.call('SISMEMBER', fair_queues_key(), queue) == 1 then
    local tenant = redis.call('HGET', job_key(id), 'tenantId') or ''
    redis.call('ZADD', fair_ready_key(queue, tenant), score, member)
    redis.call('SADD', fair_tenants_key(queue), tenant)
  end
end

local function place_ready(row, run_at)
  redis.call('HSET', job_key(row.id), 'state', 'ready', 'runAt', run_at)
  local member = ready_member(run_at, row.seq, row.id)
  redis.call('ZADD', state_key('ready', row.queue), -row.priority, member)
  mirror_ready(row.queue, row.id, -row.priority, member)
  row.state = 'ready'
  row.run_at = run_at
end

-- Moves up to max_rows rows of a delayed or suspended index whose runAt <= max_score to ready
-- (the claim scripts' first pass); an index entry whose row is gone is dropped.
local function promote_due(index, max_score, max_rows)
  local ids = redis.call('ZRANGEBYSCORE', index, '-inf', max_score, 'LIMIT', 0, max_rows)
  for _, id in ipairs(ids) do
    local row = load_row(id)
    if row == nil then
      redis.call('ZREM', index, id)
    else
      unindex(row)
      place_ready(row, row.run_at)
    end
  end
end

-- state is 'delayed' or 'suspended'
local function place_waiting(row, state, run_at)
  redis.call('HSET', job_key(row.id), 'state', state, 'runAt', run_at)
  redis.call('ZADD', state_key(state, row.queue), run_at, row.id)
  row.state = state
  row.run_at = run_at
end

-- Tells idle workers that work on the queue is due at due_at (epoch ms): '<dueAt>|<queue>'.
local function wake(queue, due_at)
  redis.call('PUBLISH', K_BASE .. 'wake', string.format('%d', due_at) .. '|' .. queue)
end
`,
});
