import { luaFragment } from '../../lua-script.js';
import { JOB_ROW } from './job-row.lua.js';

/** Ending a row: the terminal index, the finish time, and freeing its dedupe key for a new row. */
export const TERMINAL = luaFragment({
  name: 'terminal',
  keys: ['base', 'dedupe'],
  requires: [JOB_ROW],
  lua: `
-- Frees a dedupe field when row id holds it (a field taken over by a newer row stays).
local function clear_dedupe_field(field, id)
  if redis.call('HGET', K_DEDUPE, field) == id then redis.call('HDEL', K_DEDUPE, field) end
end

local function clear_dedupe(row)
  if row.dedupe then clear_dedupe_field(row.dedupe, row.id) end
end

-- state is 'done', 'dead' or 'cancelled'; the row must already be unindexed. Extra field/value
-- pairs (a result, an error) are written in the same HSET.
local function place_terminal(row, state, now, ...)
  local key = job_key(row.id)
  redis.call('HSET', key, 'state', state, 'finishedAt', now, ...)
  redis.call('HDEL', key, 'leaseExpiresAt', 'token', 'waitingFor')
  redis.call('ZADD', state_key(state, row.queue), now, row.id)
  clear_dedupe(row)
  row.state = state
end
`,
});
