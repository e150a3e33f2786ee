import { defineLuaScript } from '../lua-script.js';
import { OPTIONAL_ARG } from './includes/optional-arg.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';
import { TERMINAL } from './includes/terminal.lua.js';

/** Hands a running row back (retry, release, suspend, dead), fenced on its claim token. */
export const NACK_SCRIPT = defineLuaScript({
  name: 'nack',
  contract: `
Hands a running row back, when it is running under the token:
  retry    lastError recorded; ready (runAt <= now) or delayed at runAt; a started attempt stays counted
  release  ready or delayed at runAt (default now); the attempt this claim started (startedAt set)
           is uncounted, a claim that never started changes no count
  suspend  suspended until runAt, or until an event named waitFor is published; uncounted as release.
           An unexpired event of that name published since this attempt started makes it due now
           (the run looks again)
  dead     dead with lastError and stopReason; frees the dedupe key; a started attempt stays counted
KEYS[1] base    job:<id>, <state>:<q>, waiting:<event>, events:<event> are built from it
KEYS[2] dedupe  hash: dedupe field -> live row id
KEYS[3] event_expiry  sorted set: '<member>|<name>' by expiresAt
ARGV[1] job id   ARGV[2] claim token   ARGV[3] kind   ARGV[4] runAt epoch ms ('' = now)
ARGV[5] waitFor (optional)   ARGV[6] error JSON (optional)   ARGV[7] stopReason (optional)
Returns: 1 when handed back, 0 when the claim no longer holds the row.
`,
  keys: ['base', 'dedupe', 'event_expiry'],
  includes: [SERVER_NOW, OPTIONAL_ARG, TERMINAL],
  body: `
local row = fenced_row(ARGV[1], ARGV[2])
if row == nil then return 0 end
local kind = ARGV[3]
local run_at = now
if ARGV[4] ~= '' then run_at = tonumber(ARGV[4]) end
local wait_for, error_json, stop_reason = opt(ARGV[5]), opt(ARGV[6]), opt(ARGV[7])
local key = job_key(row.id)

unindex(row)
redis.call('HDEL', key, 'token', 'leaseExpiresAt')
if error_json then redis.call('HSET', key, 'lastError', error_json) end
if (kind == 'release' or kind == 'suspend') and row.started_at then
  if tonumber(redis.call('HGET', key, 'attempts')) > 0 then redis.call('HINCRBY', key, 'attempts', -1) end
end

if kind == 'dead' then
  redis.call('HSET', key, 'stopReason', stop_reason)
  place_terminal(row, 'dead', now)
elseif kind == 'suspend' then
  if wait_for then
    redis.call('HSET', key, 'waitingFor', wait_for)
    redis.call('SADD', waiting_key(wait_for), row.id)
    if row.started_at then
      -- An unexpired event of that name published since the start (a later one may have a shorter TTL).
      for _, member in ipairs(redis.call('ZRANGEBYSCORE', events_key(wait_for), row.started_at, '+inf')) do
        local expires_at = tonumber(redis.call('ZSCORE', K_EVENT_EXPIRY, member .. '|' .. wait_for))
        if expires_at and expires_at > now then
          run_at = math.min(run_at, now)
          break
        end
      end
    end
  end
  place_waiting(row, 'suspended', run_at)
  wake(row.queue, math.max(run_at, now))
elseif run_at > now then
  place_waiting(row, 'delayed', run_at)
  wake(row.queue, run_at)
else
  place_ready(row, run_at)
  wake(row.queue, now)
end
return 1
`,
});
