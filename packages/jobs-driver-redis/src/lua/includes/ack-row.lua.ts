import { luaFragment } from '../../lua-script.js';
import { BULK_WRITE } from './bulk-write.lua.js';
import { DONE_RETENTION } from './done-retention.lua.js';
import { TERMINAL } from './terminal.lua.js';

/**
 * The fenced ack of one row, shared by `ack` and `ack-many`: a running row under its token becomes
 * done with its result and, with a retention, expires with its steps after it. Its moves between
 * `running:<queue>` and `done:<queue>` are gathered in `moves` and written by `flush_ack_moves`, one
 * ZREM and one ZADD per queue for a whole batch.
 */
export const ACK_ROW = luaFragment({
  name: 'ack-row',
  requires: [TERMINAL, DONE_RETENTION, BULK_WRITE],
  lua: `
-- A batch of acks: its finish time and retention as the strings written (formatted once, not
-- per row), and the index moves gathered for flush_ack_moves.
local function new_ack_moves(now, retention)
  return { now = string.format('%d', now), ttl = retention, expire = tonumber(retention) > 0,
    running = {}, done = {}, keys = {} }
end

-- Answers the row's queue when it was running under token (now done), nil when the claim no
-- longer holds it. Reads only what the ack needs (state, token, queue, dedupe field, runId, the
-- no-steps mark). The row keeps its last token and leaseExpiresAt: both mean something only while
-- it is running (every fenced script checks the state first; introspection shows no lease for a
-- row that is not running), and leaving them saves an HDEL per ack.
local function ack_row(id, token, result, moves)
  local key = job_key(id)
  local f = redis.call('HMGET', key, 'state', 'token', 'queue', 'dedupe', 'runId', 'noSteps')
  if f[1] ~= 'running' or f[2] ~= token then return nil end
  local queue = f[3]
  redis.call('HSET', key, 'state', 'done', 'finishedAt', moves.now, 'result', result)
  if f[4] then clear_dedupe_field(f[4], id) end
  local keys = moves.keys[queue]
  if keys == nil then
    keys = { state_key('running', queue), state_key('done', queue) }
    moves.keys[queue] = keys
  end
  bulk_add(moves.running, keys[1], id)
  bulk_add(moves.done, keys[2], moves.now, id)
  if moves.expire then expire_done(id, f[5], moves.ttl, f[6] ~= '1') end
  return queue
end

local function flush_ack_moves(moves)
  bulk_flush('ZREM', moves.running, 1)
  bulk_flush('ZADD', moves.done, 2)
end
`,
});
