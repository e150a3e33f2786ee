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
local function new_ack_moves() return { running = {}, done = {} } end

-- Answers the row when it was running under token (now done), nil when the claim no longer holds it.
local function ack_row(id, token, result, retention, now, moves)
  local row = fenced_row(id, token)
  if row == nil then return nil end
  local key = job_key(id)
  redis.call('HSET', key, 'state', 'done', 'finishedAt', now, 'result', result)
  redis.call('HDEL', key, 'leaseExpiresAt', 'token')
  clear_dedupe(row)
  row.state = 'done'
  bulk_add(moves.running, state_key('running', row.queue), id)
  bulk_add(moves.done, state_key('done', row.queue), now, id)
  if retention > 0 then expire_done(id, row.run_id, retention) end
  return row
end

local function flush_ack_moves(moves)
  bulk_flush('ZREM', moves.running, 1)
  bulk_flush('ZADD', moves.done, 2)
end
`,
});
