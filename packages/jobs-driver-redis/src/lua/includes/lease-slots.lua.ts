import { luaFragment } from '../../lua-script.js';

/**
 * A lease key's slots are one hash, token -> '<expiresAt>|<holder>'. The key's own TTL is kept at
 * least as long as its longest slot, so an abandoned lease key disappears by itself.
 */
export const LEASE_SLOTS = luaFragment({
  name: 'lease-slots',
  keys: ['lease'],
  lua: `
local function parse_slot(value)
  local expires_at, holder = string.match(value, '^(%d+)|(.*)$')
  return tonumber(expires_at), holder
end

local function write_slot(token, expires_at, holder, ttl)
  redis.call('HSET', K_LEASE, token, string.format('%d', expires_at) .. '|' .. holder)
  if redis.call('PTTL', K_LEASE) < ttl then redis.call('PEXPIRE', K_LEASE, ttl) end
end
`,
});
