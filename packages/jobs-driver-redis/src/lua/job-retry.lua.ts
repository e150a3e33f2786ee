import { defineLuaScript } from '../lua-script.js';
import { OPTIONAL_ARG } from './includes/optional-arg.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';
import { STEP_ENCODING } from './includes/step-encoding.lua.js';
import { TERMINAL } from './includes/terminal.lua.js';

/** Puts a finished row back to ready with its attempts reset. */
export const JOB_RETRY_SCRIPT = defineLuaScript({
  name: 'job-retry',
  contract: `
Puts a done, dead or cancelled row back to ready now with attempts 0, takes its dedupe key again
and drops its retention TTL. With ARGV[2], that step and every step at a later position are
deleted first, so the run replays the earlier ones and re-executes from there.
KEYS[1] base    job:<id>, steps:<runId>, <state>:<q> are built from it
KEYS[2] dedupe  hash: dedupe field -> live row id
ARGV[1] job id    ARGV[2] from step (optional)
Returns: 1 when requeued; 0 (nothing changed) when the row is absent or live, when ARGV[2] names
no recorded step of its run, or when another live row holds its key (live-only dedupe outranks a
retry).
`,
  keys: ['base', 'dedupe'],
  includes: [SERVER_NOW, OPTIONAL_ARG, TERMINAL, STEP_ENCODING],
  body: `
local row = load_row(ARGV[1])
if row == nil or not is_terminal(row.state) then return 0 end
local holder = redis.call('HGET', K_DEDUPE, row.dedupe)
if holder and holder ~= row.id and redis.call('EXISTS', job_key(holder)) == 1 then
  return 0
end

local key, steps = job_key(row.id), steps_key(row.run_id)
local from_step = opt(ARGV[2])
if from_step then
  local from = redis.call('HGET', steps, from_step)
  if not from then return 0 end
  local from_position = tonumber((step_head(from)))
  local all = redis.call('HGETALL', steps)
  for j = 1, #all, 2 do
    if tonumber((step_head(all[j + 1]))) >= from_position then redis.call('HDEL', steps, all[j]) end
  end
end

unindex(row)
redis.call('PERSIST', key)
redis.call('PERSIST', steps)
redis.call('HSET', key, 'attempts', 0)
redis.call('HDEL', key, 'finishedAt', 'stopReason', 'result', 'cancelReason', 'token', 'leaseExpiresAt')
redis.call('HSET', K_DEDUPE, row.dedupe, row.id)
place_ready(row, now)
wake(row.queue, now)
return 1
`,
});
