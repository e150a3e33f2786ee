import { defineLuaScript } from '../lua-script.js';
import { KEY_FUNCTIONS } from './includes/key-functions.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** One page of unexpired events of a name published at or after a time, oldest first. */
export const EVENT_FIND_SCRIPT = defineLuaScript({
  name: 'event-find',
  contract: `
Reads a page of events named ARGV[1] published at or after ARGV[2], oldest first, leaving out the
expired ones (read only). The payload match is applied by the caller.
KEYS[1] base            events:<name> is built from it
KEYS[2] event_records   hash: member -> record JSON
KEYS[3] event_expiry    sorted set: '<member>|<name>' by expiresAt
ARGV[1] event name    ARGV[2] since epoch ms    ARGV[3] offset    ARGV[4] page size
Returns: {members examined, {record JSON, ...}}; fewer examined than the page size means the end.
`,
  keys: ['base', 'event_records', 'event_expiry'],
  includes: [SERVER_NOW, KEY_FUNCTIONS],
  body: `
local members = redis.call('ZRANGEBYSCORE', events_key(ARGV[1]), ARGV[2], '+inf', 'LIMIT', ARGV[3], ARGV[4])
local records = {}
for _, member in ipairs(members) do
  local expires_at = redis.call('ZSCORE', K_EVENT_EXPIRY, member .. '|' .. ARGV[1])
  if expires_at and tonumber(expires_at) > now then
    records[#records + 1] = redis.call('HGET', K_EVENT_RECORDS, member)
  end
end
return { #members, records }
`,
});
