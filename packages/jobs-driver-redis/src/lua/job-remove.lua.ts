import { defineLuaScript } from '../lua-script.js';
import { TERMINAL } from './includes/terminal.lua.js';

/** Deletes a row that is not running, with its steps. */
export const JOB_REMOVE_SCRIPT = defineLuaScript({
  name: 'job-remove',
  contract: `
Deletes a row that is not running, its steps and its index entries; a live row frees its key.
KEYS[1] base    job:<id>, steps:<runId>, <state>:<q> are built from it
KEYS[2] dedupe  hash: dedupe field -> live row id
KEYS[3] jobs    sorted set: id by sequence
ARGV[1] job id
Returns: 1 when deleted, 0 when absent or running.
`,
  keys: ['base', 'dedupe', 'jobs'],
  includes: [TERMINAL],
  body: `
local row = load_row(ARGV[1])
if row == nil or row.state == 'running' then return 0 end
unindex(row)
clear_dedupe(row)
redis.call('DEL', job_key(row.id), steps_key(row.run_id))
redis.call('ZREM', K_JOBS, row.id)
return 1
`,
});
