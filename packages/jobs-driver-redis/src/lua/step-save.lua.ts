import { defineLuaScript } from '../lua-script.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { STEP_ENCODING } from './includes/step-encoding.lua.js';

/** Upserts one durable step, fenced on the job's claim token. */
export const STEP_SAVE_SCRIPT = defineLuaScript({
  name: 'step-save',
  contract: `
Upserts the step ARGV[3] of the run whose steps hash is KEYS[2], when job ARGV[1] is running under
the token. A step already stored keeps its position and startedAt; status, completedAt and the
JSON body (name, output, error) are replaced. A new step clears the row's noSteps mark.
KEYS[1] base    job:<id> is built from it
KEYS[2] steps   hash of the run's steps: name -> encoded step
ARGV[1] job id    ARGV[2] claim token    ARGV[3] step name    ARGV[4] position
ARGV[5] startedAt epoch ms    ARGV[6] status    ARGV[7] completedAt ('' = none)    ARGV[8] body JSON
Returns: 1 when written, 0 when the claim no longer holds the job.
`,
  keys: ['base', 'steps'],
  includes: [JOB_ROW, STEP_ENCODING],
  body: `
if fenced_row(ARGV[1], ARGV[2]) == nil then return 0 end
local position, started_at = ARGV[4], ARGV[5]
local existing = redis.call('HGET', K_STEPS, ARGV[3])
if existing then
  position, started_at = step_head(existing)
else
  redis.call('HDEL', job_key(ARGV[1]), 'noSteps') -- the row has steps now: its ack expires them
end
redis.call('HSET', K_STEPS, ARGV[3], encode_step(position, started_at, ARGV[6], ARGV[7], ARGV[8]))
return 1
`,
});
