import { defineLuaScript } from '../lua-script.js';
import { ACK_ROW } from './includes/ack-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

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
  includes: [SERVER_NOW, ACK_ROW],
  body: `
local retention = tonumber(ARGV[4])
local moves = new_ack_moves(now, ARGV[4])
local queue = ack_row(ARGV[1], ARGV[2], ARGV[3], moves)
if queue == nil then return 0 end
flush_ack_moves(moves)
if retention > 0 then trim_done(queue, now - retention, ${ACK_TRIM_MAX}) end
return 1
`,
});
