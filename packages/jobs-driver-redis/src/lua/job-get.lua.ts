import { defineLuaScript } from '../lua-script.js';
import { KEY_FUNCTIONS } from './includes/key-functions.lua.js';

/** Reads one row and its steps in one round trip. */
export const JOB_GET_SCRIPT = defineLuaScript({
  name: 'job-get',
  contract: `
Reads job ARGV[1] and every step of its run (read only).
KEYS[1] base    job:<id>, steps:<runId> are built from it
ARGV[1] job id
Returns: {job hash as a flat field/value array, encoded steps}, or nil when the row is absent.
`,
  keys: ['base'],
  includes: [KEY_FUNCTIONS],
  body: `
local row = redis.call('HGETALL', job_key(ARGV[1]))
if #row == 0 then return nil end
local run_id = redis.call('HGET', job_key(ARGV[1]), 'runId')
return { row, redis.call('HVALS', steps_key(run_id)) }
`,
});
