import { luaFragment } from '../../lua-script.js';
import { JOB_ROW } from './job-row.lua.js';
import { SETTLE_WAKE } from './settle-wake.lua.js';

/** Ending a row: the terminal index, the finish time, and freeing its dedupe key for a new row. */
export const TERMINAL = luaFragment({
  name: 'terminal',
  keys: ['base', 'dedupe'],
  requires: [JOB_ROW, SETTLE_WAKE],
  lua: `
local function clear_dedupe(row)
  if row.dedupe and redis.call('HGET', K_DEDUPE, row.dedupe) == row.id then
    redis.call('HDEL', K_DEDUPE, row.dedupe)
  end
end

-- state is 'done', 'dead' or 'cancelled'; the row must already be unindexed. Extra field/value
-- pairs (a result, an error) are written in the same HSET. Publishes the settle wake.
local function place_terminal(row, state, now, ...)
  local key = job_key(row.id)
  redis.call('HSET', key, 'state', state, 'finishedAt', now, ...)
  redis.call('HDEL', key, 'leaseExpiresAt', 'token', 'waitingFor')
  redis.call('ZADD', state_key(state, row.queue), now, row.id)
  clear_dedupe(row)
  row.state = state
  publish_settled({ row.id })
end
`,
});
