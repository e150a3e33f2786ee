import { defineLuaScript } from '../lua-script.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/** Pauses or resumes a queue; a resume wakes its workers. */
export const QUEUE_PAUSE_SCRIPT = defineLuaScript({
  name: 'queue-pause',
  contract: `
Adds the queue to the paused set (claims skip it) or removes it and wakes the queue's workers.
Idempotent.
KEYS[1] base    the wake channel is built from it
KEYS[2] paused  set of paused queues
ARGV[1] queue    ARGV[2] '1' to pause, '0' to resume
Returns: 1.
`,
  keys: ['base', 'paused'],
  includes: [SERVER_NOW, JOB_ROW],
  body: `
if ARGV[2] == '1' then
  redis.call('SADD', K_PAUSED, ARGV[1])
elseif redis.call('SREM', K_PAUSED, ARGV[1]) == 1 then
  wake(ARGV[1], now)
end
return 1
`,
});
