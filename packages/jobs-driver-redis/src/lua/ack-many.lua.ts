import { defineLuaScript } from '../lua-script.js';
import { ACK_TRIM_MAX } from './ack.lua.js';
import { ACK_ROW } from './includes/ack-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Fields per ack in the ack-many script's ARGV, after the retention. */
const ACK_MANY_STRIDE = 3;

/** Marks many running rows done in one call, each fenced on its own claim token like `ack`. */
export const ACK_MANY_SCRIPT = defineLuaScript({
  name: 'ack-many',
  contract: `
The ack of each (id, token, result) in turn, exactly as the ack script does it: a row running under
its token becomes done with its result and frees its dedupe key; any other row is left as it is.
With a retention (ARGV[1] > 0) each acked row and its steps expire after it, and each queue that
got k acks has up to ${ACK_TRIM_MAX} + k done rows finished more than a retention ago deleted.
KEYS[1] base    job:<id>, steps:<runId>, running:<q>, done:<q> are built from it
KEYS[2] dedupe  hash: dedupe field -> live row id
KEYS[3] jobs    sorted set: id by sequence
ARGV[1] done retention ms (0 keeps); then ${ACK_MANY_STRIDE} fields per ack i (b = 1 + (i-1)*${ACK_MANY_STRIDE}):
  ARGV[b+1] job id    ARGV[b+2] claim token    ARGV[b+3] result JSON
Returns: one string with a character per ack, in order: '1' settled, '0' the claim no longer
holds the row.
`,
  keys: ['base', 'dedupe', 'jobs'],
  includes: [SERVER_NOW, ACK_ROW],
  body: `
local STRIDE = ${ACK_MANY_STRIDE}
local retention = tonumber(ARGV[1])
local out = {}
local acked = {}
local moves = new_ack_moves(now, ARGV[1])
for i = 1, (#ARGV - 1) / STRIDE do
  local b = 1 + (i - 1) * STRIDE
  local queue = ack_row(ARGV[b + 1], ARGV[b + 2], ARGV[b + 3], moves)
  if queue == nil then
    out[i] = '0'
  else
    out[i] = '1'
    acked[queue] = (acked[queue] or 0) + 1
  end
end
flush_ack_moves(moves)
if retention > 0 then
  for queue, k in pairs(acked) do trim_done(queue, now - retention, ${ACK_TRIM_MAX} + k) end
end
return table.concat(out)
`,
});
