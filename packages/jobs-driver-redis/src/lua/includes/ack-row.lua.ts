import { luaFragment } from '../../lua-script.js';
import { DONE_RETENTION } from './done-retention.lua.js';
import { TERMINAL } from './terminal.lua.js';

/**
 * The fenced ack of one row, shared by `ack` and `ack-many`: a running row under its token becomes
 * done with its result and, with a retention, expires with its steps after it.
 */
export const ACK_ROW = luaFragment({
  name: 'ack-row',
  requires: [TERMINAL, DONE_RETENTION],
  lua: `
-- Answers the row when it was running under token (now done), nil when the claim no longer holds it.
local function ack_row(id, token, result, retention, now)
  local row = fenced_row(id, token)
  if row == nil then return nil end
  unindex(row)
  place_terminal(row, 'done', now, 'result', result)
  if retention > 0 then expire_done(row.id, row.run_id, retention) end
  return row
end
`,
});
