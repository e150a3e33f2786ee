import { defineLuaScript } from '../lua-script.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Makes a delayed or suspended row due now. */
export const JOB_PROMOTE_SCRIPT = defineLuaScript({
  name: 'job-promote',
  contract: `
Moves a delayed or suspended row to ready now (a suspended run stops waiting for its event) and
wakes its queue.
KEYS[1] base    job:<id>, <state>:<q>, waiting:<event> are built from it
ARGV[1] job id
Returns: 1 when promoted, 0 when absent or in another state.
`,
  keys: ['base'],
  includes: [SERVER_NOW, JOB_ROW],
  body: `
local row = load_row(ARGV[1])
if row == nil or (row.state ~= 'delayed' and row.state ~= 'suspended') then return 0 end
unindex(row)
place_ready(row, now)
wake(row.queue, now)
return 1
`,
});
