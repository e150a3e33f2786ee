import { defineLuaScript } from '../lua-script.js';
import { KEY_FUNCTIONS } from './includes/key-functions.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** How many expired events one purge call deletes at most. */
export const EVENT_PURGE_BATCH = 1000;

/** Deletes expired events. */
export const EVENT_PURGE_SCRIPT = defineLuaScript({
  name: 'event-purge',
  contract: `
Deletes up to ${EVENT_PURGE_BATCH} events whose expiry has passed.
KEYS[1] base            events:<name> is built from it
KEYS[2] event_records   hash: member -> record JSON
KEYS[3] event_expiry    sorted set: '<member>|<name>' by expiresAt
Returns: how many were deleted (the caller repeats while a full batch comes back).
`,
  keys: ['base', 'event_records', 'event_expiry'],
  includes: [SERVER_NOW, KEY_FUNCTIONS],
  body: `
local expired = redis.call('ZRANGEBYSCORE', K_EVENT_EXPIRY, '-inf', now, 'LIMIT', 0, ${EVENT_PURGE_BATCH})
for _, entry in ipairs(expired) do
  local member, name = string.match(entry, '^([^|]*)|(.*)$')
  redis.call('HDEL', K_EVENT_RECORDS, member)
  redis.call('ZREM', events_key(name), member)
  redis.call('ZREM', K_EVENT_EXPIRY, entry)
end
return #expired
`,
});
