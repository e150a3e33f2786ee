import { defineLuaScript } from '../lua-script.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Sets a task's pause flag, creating its row. */
export const SCHEDULE_PAUSE_SCRIPT = defineLuaScript({
  name: 'schedule-pause',
  contract: `
Sets task ARGV[1]'s pause flag, creating the row (watermark null) when absent.
KEYS[1] schedules   hash: task -> '<watermark>|<paused 0|1>|<updatedAt>'
ARGV[1] task    ARGV[2] '1' paused, '0' running
Returns: 1.
`,
  keys: ['schedules'],
  includes: [SERVER_NOW],
  body: `
local watermark = ''
local value = redis.call('HGET', K_SCHEDULES, ARGV[1])
if value then watermark = string.match(value, '^([^|]*)|') end
redis.call('HSET', K_SCHEDULES, ARGV[1], watermark .. '|' .. ARGV[2] .. '|' .. string.format('%d', now))
return 1
`,
});
