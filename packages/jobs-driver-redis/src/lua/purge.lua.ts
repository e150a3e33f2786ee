import { defineLuaScript } from '../lua-script.js';
import { DONE_RETENTION } from './includes/done-retention.lua.js';

/** How many done rows one purge call deletes at most (the driver calls again until fewer come back). */
export const PURGE_BATCH = 1000;

/** Deletes done rows finished before a cutoff, with their steps. */
export const PURGE_SCRIPT = defineLuaScript({
  name: 'purge',
  contract: `
Deletes up to ${PURGE_BATCH} done rows (and their steps) finished before ARGV[1], across every queue.
Dead and cancelled rows are kept.
KEYS[1] base    done:<q>, job:<id>, steps:<runId> are built from it
KEYS[2] jobs    sorted set: id by sequence
KEYS[3] queues  set of queue names
ARGV[1] cutoff epoch ms (rows finished strictly before it)
Returns: how many rows were deleted.
`,
  keys: ['base', 'jobs', 'queues'],
  includes: [DONE_RETENTION],
  body: `
local cutoff = tonumber(ARGV[1])
local deleted = 0
for _, queue in ipairs(redis.call('SMEMBERS', K_QUEUES)) do
  if deleted >= ${PURGE_BATCH} then break end
  deleted = deleted + trim_done(queue, cutoff, ${PURGE_BATCH} - deleted)
end
return deleted
`,
});
