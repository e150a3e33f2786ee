import { defineLuaScript } from '../lua-script.js';
import { KEY_FUNCTIONS } from './includes/key-functions.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';
import { STEP_ENCODING } from './includes/step-encoding.lua.js';

/** Resolves a `once` step left `started` by a crash. */
export const STEP_RESOLVE_SCRIPT = defineLuaScript({
  name: 'step-resolve',
  contract: `
Resolves the step ARGV[2] of job ARGV[1] when it is 'started': ran = 1 records it completed now
with the body ARGV[4] (name, output); ran = 0 deletes it so the next attempt runs it.
KEYS[1] base    job:<id>, steps:<runId> are built from it
ARGV[1] job id    ARGV[2] step name    ARGV[3] ran ('1' | '0')    ARGV[4] body JSON (when ran)
Returns: 1 when resolved, 0 when the job or step is absent or the step is not 'started'.
`,
  keys: ['base'],
  includes: [SERVER_NOW, KEY_FUNCTIONS, STEP_ENCODING],
  body: `
local run_id = redis.call('HGET', job_key(ARGV[1]), 'runId')
if not run_id then return 0 end
local key = steps_key(run_id)
local existing = redis.call('HGET', key, ARGV[2])
if not existing then return 0 end
local position, started_at, status = step_head(existing)
if status ~= 'started' then return 0 end
if ARGV[3] == '1' then
  redis.call('HSET', key, ARGV[2], encode_step(position, started_at, 'completed', string.format('%d', now), ARGV[4]))
else
  redis.call('HDEL', key, ARGV[2])
end
return 1
`,
});
