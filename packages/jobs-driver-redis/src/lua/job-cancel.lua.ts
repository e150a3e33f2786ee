import { defineLuaScript } from '../lua-script.js';
import { OPTIONAL_ARG } from './includes/optional-arg.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';
import { TERMINAL } from './includes/terminal.lua.js';

/** Cancels a live row. */
export const JOB_CANCEL_SCRIPT = defineLuaScript({
  name: 'job-cancel',
  contract: `
Cancels a live row at once, with an optional reason, and frees its dedupe key. A running row is
marked cancelled too: its claim token is dropped, so the holder's next heartbeat answers 0.
KEYS[1] base    job:<id>, <state>:<q>, waiting:<event> are built from it
KEYS[2] dedupe  hash: dedupe field -> live row id
ARGV[1] job id    ARGV[2] reason (optional)
Returns: 1 when cancelled, 0 when absent or already terminal.
`,
  keys: ['base', 'dedupe'],
  includes: [SERVER_NOW, OPTIONAL_ARG, TERMINAL],
  body: `
local row = load_row(ARGV[1])
if row == nil or is_terminal(row.state) then return 0 end
unindex(row)
local reason = opt(ARGV[2])
if reason then redis.call('HSET', job_key(row.id), 'cancelReason', reason) end
place_terminal(row, 'cancelled', now)
return 1
`,
});
