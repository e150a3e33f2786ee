import { defineLuaScript } from '../lua-script.js';
import { LEASE_SLOTS } from './includes/lease-slots.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** The unexpired grants of a lease key. */
export const LEASE_HOLDERS_SCRIPT = defineLuaScript({
  name: 'lease-holders',
  contract: `
Reads the unexpired slots of the lease key (read only).
KEYS[1] lease   hash: token -> '<expiresAt>|<holder>'
Returns: {token, expiresAt, holder} per unexpired slot.
`,
  keys: ['lease'],
  includes: [SERVER_NOW, LEASE_SLOTS],
  body: `
local slots = redis.call('HGETALL', K_LEASE)
local out = {}
for j = 1, #slots, 2 do
  local expires_at, holder = parse_slot(slots[j + 1])
  if expires_at > now then out[#out + 1] = { slots[j], string.format('%d', expires_at), holder } end
end
return out
`,
});
