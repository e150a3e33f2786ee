import { defineLuaScript } from '../lua-script.js';
import { JOB_ROW } from './includes/job-row.lua.js';

/** Persists progress on a running row, fenced on its claim token. */
export const PROGRESS_SCRIPT = defineLuaScript({
  name: 'progress',
  contract: `
Stores the progress JSON on the row when it is running under the token.
KEYS[1] base    job:<id> is built from it
ARGV[1] job id    ARGV[2] claim token    ARGV[3] progress JSON {current, total}
Returns: 1 when stored, 0 when the claim no longer holds the row.
`,
  keys: ['base'],
  includes: [JOB_ROW],
  body: `
local row = fenced_row(ARGV[1], ARGV[2])
if row == nil then return 0 end
redis.call('HSET', job_key(row.id), 'progress', ARGV[3])
return 1
`,
});
