import { defineLuaScript } from '../lua-script.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Moves a task's watermark, compare-and-set. */
export const SCHEDULE_ADVANCE_SCRIPT = defineLuaScript({
  name: 'schedule-advance',
  contract: `
Sets task ARGV[1]'s watermark to ARGV[3] when it is ARGV[2] now ('' = no row or a null watermark).
The first successful set creates the row unpaused.
KEYS[1] schedules   hash: task -> '<watermark>|<paused 0|1>|<updatedAt>'
ARGV[1] task    ARGV[2] expected watermark ('' = null)    ARGV[3] next watermark
Returns: 1 when moved, 0 when another node moved it first.
`,
  keys: ['schedules'],
  includes: [SERVER_NOW],
  body: `
local watermark, paused = '', '0'
local value = redis.call('HGET', K_SCHEDULES, ARGV[1])
if value then watermark, paused = string.match(value, '^([^|]*)|([01])|') end
if watermark ~= ARGV[2] then return 0 end
redis.call('HSET', K_SCHEDULES, ARGV[1], ARGV[3] .. '|' .. paused .. '|' .. string.format('%d', now))
return 1
`,
});
