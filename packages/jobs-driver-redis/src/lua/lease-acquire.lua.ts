import { defineLuaScript } from '../lua-script.js';
import { LEASE_SLOTS } from './includes/lease-slots.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Takes (or renews) one counted slot of a lease key. */
export const LEASE_ACQUIRE_SCRIPT = defineLuaScript({
  name: 'lease-acquire',
  contract: `
Takes one of ARGV[2] slots of the lease key for holder ARGV[1] until now + ARGV[3]. Expired slots
are deleted first (they count as free). A holder that already holds an unexpired slot gets that
slot renewed instead (acquire is also the renewal).
KEYS[1] lease   hash: token -> '<expiresAt>|<holder>'
ARGV[1] holder    ARGV[2] limit    ARGV[3] ttl ms    ARGV[4] token for a new slot
Returns: {token, expiresAt}, or nil when all slots are held by others.
`,
  keys: ['lease'],
  includes: [SERVER_NOW, LEASE_SLOTS],
  body: `
local holder, limit, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local slots = redis.call('HGETALL', K_LEASE)
local held, mine = 0, nil
for j = 1, #slots, 2 do
  local expires_at, slot_holder = parse_slot(slots[j + 1])
  if expires_at <= now then
    redis.call('HDEL', K_LEASE, slots[j])
  else
    held = held + 1
    if slot_holder == holder and mine == nil then mine = slots[j] end
  end
end
local token = mine
if token == nil then
  if held >= limit then return nil end
  token = ARGV[4]
end
write_slot(token, now + ttl, holder, ttl)
return { token, string.format('%d', now + ttl) }
`,
});
