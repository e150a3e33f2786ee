import { defineLuaScript } from '../lua-script.js';
import { LEASE_SLOTS } from './includes/lease-slots.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Frees a lease slot, fenced on its token. */
export const LEASE_RELEASE_SCRIPT = defineLuaScript({
  name: 'lease-release',
  contract: `
Deletes the slot ARGV[1] of holder ARGV[2].
KEYS[1] lease   hash: token -> '<expiresAt>|<holder>'
ARGV[1] token    ARGV[2] holder
Returns: 1 when the grant still held an unexpired slot, 0 when it was gone, lapsed or foreign.
`,
  keys: ['lease'],
  includes: [SERVER_NOW, LEASE_SLOTS],
  body: `
local value = redis.call('HGET', K_LEASE, ARGV[1])
if not value then return 0 end
local expires_at, holder = parse_slot(value)
if holder ~= ARGV[2] then return 0 end
redis.call('HDEL', K_LEASE, ARGV[1])
if expires_at <= now then return 0 end
return 1
`,
});
