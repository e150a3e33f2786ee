import { defineLuaScript } from '../lua-script.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Stores an event and wakes every run suspended waiting for it. */
export const EVENT_PUBLISH_SCRIPT = defineLuaScript({
  name: 'event-publish',
  contract: `
Stores the event for ARGV[3] ms and, in the same step, moves every row suspended with
waitingFor = ARGV[1] to ready now and wakes their queues. Events of one name are ordered by
publish time, then by a sequence (the member '<seq:15 digits>:<id>' sorts bytewise within one ms).
KEYS[1] base            events:<name>, waiting:<name>, job:<id>, <state>:<q> are built from it
KEYS[2] seq             sequence counter
KEYS[3] event_records   hash: member -> record JSON
KEYS[4] event_expiry    sorted set: '<member>|<name>' by expiresAt
ARGV[1] event name    ARGV[2] payload JSON    ARGV[3] ttl ms    ARGV[4] event id
Returns: the record JSON {id, event, payload, publishedAt, expiresAt}.
`,
  keys: ['base', 'seq', 'event_records', 'event_expiry'],
  includes: [SERVER_NOW, JOB_ROW],
  body: `
local name, id = ARGV[1], ARGV[4]
local expires_at = now + tonumber(ARGV[3])
local member = string.format('%015d', redis.call('INCR', K_SEQ)) .. ':' .. id
local record = '{"id":' .. cjson.encode(id) .. ',"event":' .. cjson.encode(name) .. ',"payload":' .. ARGV[2]
  .. ',"publishedAt":' .. string.format('%d', now) .. ',"expiresAt":' .. string.format('%d', expires_at) .. '}'
redis.call('HSET', K_EVENT_RECORDS, member, record)
redis.call('ZADD', events_key(name), now, member)
redis.call('ZADD', K_EVENT_EXPIRY, expires_at, member .. '|' .. name)

local woken = {}
for _, job_id in ipairs(redis.call('SMEMBERS', waiting_key(name))) do
  local row = load_row(job_id)
  if row and row.state == 'suspended' and row.waiting_for == name then
    unindex(row)
    place_ready(row, now)
    woken[row.queue] = true
  end
end
redis.call('DEL', waiting_key(name))
for queue in pairs(woken) do wake(queue, now) end
return record
`,
});
