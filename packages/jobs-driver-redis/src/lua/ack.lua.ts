import { defineLuaScript } from '../lua-script.js';
import { DONE_RETENTION } from './includes/done-retention.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';
import { TERMINAL } from './includes/terminal.lua.js';

/** How many expired done rows one ack deletes from its queue (amortised retention). */
export const ACK_TRIM_MAX = 100;

/** Marks a running row done, fenced on its claim token. */
export const ACK_SCRIPT = defineLuaScript({
  name: 'ack',
  contract: `
Marks the row done with its result, when it is running under the token; frees its dedupe key.
With a retention (ARGV[4] > 0) the row and its steps expire after it, and up to ${ACK_TRIM_MAX} done rows
of the queue finished more than a retention ago are deleted.
KEYS[1] base    job:<id>, steps:<runId>, running:<q>, done:<q> are built from it
KEYS[2] dedupe  hash: dedupe field -> live row id
KEYS[3] jobs    sorted set: id by sequence
ARGV[1] job id    ARGV[2] claim token    ARGV[3] result JSON    ARGV[4] done retention ms (0 keeps)
Returns: 1 when settled, 0 when the claim no longer holds the row.
`,
  keys: ['base', 'dedupe', 'jobs'],
  includes: [SERVER_NOW, TERMINAL, DONE_RETENTION],
  body: `
local row = fenced_row(ARGV[1], ARGV[2])
if row == nil then return 0 end
unindex(row)
place_terminal(row, 'done', now)
redis.call('HSET', job_key(row.id), 'result', ARGV[3])
local retention = tonumber(ARGV[4])
if retention > 0 then
  expire_done(row.id, row.run_id, retention)
  trim_done(row.queue, now - retention, ${ACK_TRIM_MAX})
end
return 1
`,
});
