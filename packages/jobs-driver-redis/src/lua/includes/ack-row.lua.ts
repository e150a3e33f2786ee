import { luaFragment } from '../../lua-script.js';
import { BULK_WRITE } from './bulk-write.lua.js';
import { DONE_RETENTION } from './done-retention.lua.js';
import { SETTLE_WAKE } from './settle-wake.lua.js';

/**
 * The fenced ack of one row, shared by `ack` and `ack-many`: a running row under its token becomes
 * done with its result and, with a retention, expires with its steps after it. Its moves between
 * `running:<queue>` and `done:<queue>` and the release of its dedupe field are gathered in `moves`
 * and written by `flush_ack_moves`: one ZREM and one ZADD per queue, one HMGET and one HDEL of the
 * dedupe hash, for a whole batch. The ZREM from `running` is the batch's first write, so a full
 * Redis (maxmemory under noeviction) still takes acks: it refuses a script's memory-growing write
 * only while the script has written nothing.
 */
export const ACK_ROW = luaFragment({
  name: 'ack-row',
  keys: ['base', 'dedupe'],
  requires: [DONE_RETENTION, BULK_WRITE, SETTLE_WAKE],
  lua: `
-- A batch of acks: its finish time and retention as the strings written (formatted once, not
-- per row), and the index moves gathered for flush_ack_moves.
local function new_ack_moves(now, retention)
  return { now = string.format('%d', now), ttl = retention, expire = tonumber(retention) > 0,
    running = {}, done = {}, keys = {}, dedupe_fields = {}, dedupe_ids = {}, acked = {}, rows = {}, seen = {} }
end

-- Answers the row's queue when it was running under token (flush_ack_moves makes it done), nil
-- when the claim no longer holds it or the batch already acks it. Reads only what the ack needs (state, token, queue, dedupe field, runId, the
-- no-steps mark). The row keeps its last token and leaseExpiresAt: both mean something only while
-- it is running (every fenced script checks the state first; introspection shows no lease for a
-- row that is not running), and leaving them saves an HDEL per ack.
local function ack_row(id, token, result, moves)
  local key = job_key(id)
  local f = redis.call('HMGET', key, 'state', 'token', 'queue', 'dedupe', 'runId', 'noSteps')
  if f[1] ~= 'running' or f[2] ~= token or moves.seen[id] then return nil end
  moves.seen[id] = true
  local queue = f[3]
  local rows = moves.rows
  rows[#rows + 1] = { id = id, key = key, result = result, run_id = f[5], has_steps = f[6] ~= '1' }
  if f[4] then
    local n = #moves.dedupe_fields + 1
    moves.dedupe_fields[n] = f[4]
    moves.dedupe_ids[n] = id
  end
  local keys = moves.keys[queue]
  if keys == nil then
    keys = { state_key('running', queue), state_key('done', queue) }
    moves.keys[queue] = keys
  end
  moves.acked[#moves.acked + 1] = id
  bulk_add(moves.running, keys[1], id)
  bulk_add(moves.done, keys[2], moves.now, id)
  return queue
end

-- Writes the gathered moves, frees the dedupe fields the acked rows still hold (one HMGET and
-- one HDEL for the batch; a field taken over by a newer row stays), and publishes one settle wake
-- for the batch.
local function flush_ack_moves(moves)
  -- The acked rows leave their running indexes before anything is written: at the memory limit
  -- this first write frees, so the writes after it run (Redis refuses a script's memory-growing
  -- write only while the script has written nothing).
  bulk_flush('ZREM', moves.running, 1)
  for _, row in ipairs(moves.rows) do
    redis.call('HSET', row.key, 'state', 'done', 'finishedAt', moves.now, 'result', row.result)
    if moves.expire then expire_done(row.id, row.run_id, moves.ttl, row.has_steps) end
  end
  bulk_flush('ZADD', moves.done, 2)
  local fields, ids = moves.dedupe_fields, moves.dedupe_ids
  for first = 1, #fields, 4000 do
    local last = math.min(first + 3999, #fields)
    local holders = redis.call('HMGET', K_DEDUPE, unpack(fields, first, last))
    local free = {}
    for k = first, last do
      if holders[k - first + 1] == ids[k] then free[#free + 1] = fields[k] end
    end
    if #free > 0 then redis.call('HDEL', K_DEDUPE, unpack(free)) end
  end
  publish_settled(moves.acked)
end
`,
});
