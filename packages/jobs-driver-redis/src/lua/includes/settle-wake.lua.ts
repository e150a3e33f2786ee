import { SETTLED_MESSAGE_MAX_BYTES } from '@x/jobs-core/driver';
import { luaFragment } from '../../lua-script.js';

/**
 * The settle wake: one PUBLISH per script on `<prefix>settled`, naming the ids that reached a
 * terminal state joined by `\n` while they fit in `SETTLED_MESSAGE_MAX_BYTES` (core), else the
 * empty string (a bare marker: "jobs settled, re-read"). One message per batch, never per row: a
 * PUBLISH with no subscriber is a hash lookup, and one with many is one short message each.
 */
export const SETTLE_WAKE = luaFragment({
  name: 'settle-wake',
  keys: ['base'],
  lua: `
local function publish_settled(ids)
  if #ids == 0 then return end
  local message = table.concat(ids, '\\n')
  if #message > ${SETTLED_MESSAGE_MAX_BYTES} then message = '' end
  redis.call('PUBLISH', K_BASE .. 'settled', message)
end
`,
});
