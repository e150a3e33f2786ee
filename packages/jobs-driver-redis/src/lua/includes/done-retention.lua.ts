import { luaFragment } from '../../lua-script.js';
import { KEY_FUNCTIONS } from './key-functions.lua.js';

/**
 * Retention of `done` rows: a row and its steps get a TTL when they finish, and the `done:<queue>`
 * index (plus the listing index) is trimmed of rows finished before a cutoff, a bounded batch at a
 * time. `dead` and `cancelled` rows are never touched.
 */
export const DONE_RETENTION = luaFragment({
  name: 'done-retention',
  keys: ['base', 'jobs'],
  requires: [KEY_FUNCTIONS],
  lua: `
-- has_steps false: the row is marked noSteps (no step was ever saved), so there is no steps hash
-- to expire and the PEXPIRE of a missing key is skipped.
local function expire_done(id, run_id, ttl, has_steps)
  redis.call('PEXPIRE', job_key(id), ttl)
  if has_steps then redis.call('PEXPIRE', steps_key(run_id), ttl) end
end

-- Deletes up to max done rows of queue finished before cutoff (epoch ms); answers how many.
local function trim_done(queue, cutoff, max)
  local index = state_key('done', queue)
  local ids = redis.call('ZRANGEBYSCORE', index, '-inf', '(' .. string.format('%d', cutoff), 'LIMIT', 0, max)
  for _, id in ipairs(ids) do
    local key = job_key(id)
    local f = redis.call('HMGET', key, 'state', 'runId')
    if f[1] == 'done' then
      redis.call('DEL', steps_key(f[2]))
      redis.call('DEL', key)
    end
    if f[1] == false or f[1] == 'done' then redis.call('ZREM', K_JOBS, id) end
    redis.call('ZREM', index, id)
  end
  return #ids
end
`,
});
