import { defineLuaScript } from '../lua-script.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** One take of a sliding-window rate limit. */
export const RATE_LIMIT_TAKE_SCRIPT = defineLuaScript({
  name: 'rate-limit-take',
  contract: `
Takes one grant of a rate-limit key when fewer than ARGV[1] grants were made in the last ARGV[2] ms
of the server clock (the memory driver's takeFromLog, verbatim): grants with g + per <= now stop
counting and are popped; under the limit, greatest(now, newest grant) is appended and the list
lives until it stops counting; over it, the answer is greatest(E, tail + ceil(per / limit)), E
being the (n - limit + 1)-th oldest of the n counted grants plus per, and it becomes the tail.
One script, so racing takers across processes never grant more than the limit in any window.
KEYS[1] rate        list: grants still counting, epoch ms, oldest first
KEYS[2] rate_tail   string: the retryAt of the key's last refusal
ARGV[1] limit    ARGV[2] window ms
Returns: {1} granted, or {0, retryAt} refused (retryAt epoch ms, a string).
`,
  keys: ['rate', 'rate_tail'],
  includes: [SERVER_NOW],
  body: `
local limit, per = tonumber(ARGV[1]), tonumber(ARGV[2])
while true do
  local oldest = redis.call('LINDEX', K_RATE, 0)
  if not oldest or tonumber(oldest) + per > now then break end
  redis.call('LPOP', K_RATE)
end
local count = redis.call('LLEN', K_RATE)
if count < limit then
  local newest = redis.call('LINDEX', K_RATE, -1)
  local at = now
  if newest and tonumber(newest) > at then at = tonumber(newest) end
  redis.call('RPUSH', K_RATE, string.format('%d', at))
  redis.call('PEXPIRE', K_RATE, at + per - now)
  return { 1 }
end
local tail = tonumber(redis.call('GET', K_RATE_TAIL) or '0')
local earliest = tonumber(redis.call('LINDEX', K_RATE, count - limit)) + per
local retry_at = math.max(earliest, tail + math.ceil(per / limit))
redis.call('SET', K_RATE_TAIL, string.format('%d', retry_at), 'PX', retry_at - now)
return { 0, string.format('%d', retry_at) }
`,
});
