import { defineLuaScript } from '../lua-script.js';
import { LEASE_SLOTS } from './includes/lease-slots.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Extends a lease grant, fenced on its token. */
export const LEASE_RENEW_SCRIPT = defineLuaScript({
  name: 'lease-renew',
  contract: `
Extends the slot ARGV[1] of holder ARGV[2] to now + ARGV[3] while it is unexpired. A lapsed slot
cannot be renewed, whether or not another holder took it since (the contract fences on expiry).
KEYS[1] lease   hash: token -> '<expiresAt>|<holder>'
ARGV[1] token    ARGV[2] holder    ARGV[3] ttl ms
Returns: the new expiresAt, or nil when the slot is gone, lapsed or belongs to another holder.
`,
  keys: ['lease'],
  includes: [SERVER_NOW, LEASE_SLOTS],
  body: `
local value = redis.call('HGET', K_LEASE, ARGV[1])
if not value then return nil end
local expires_at, holder = parse_slot(value)
if holder ~= ARGV[2] or expires_at <= now then return nil end
local ttl = tonumber(ARGV[3])
write_slot(ARGV[1], now + ttl, holder, ttl)
return string.format('%d', now + ttl)
`,
});
