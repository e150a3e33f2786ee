import { luaFragment } from '../../lua-script.js';

/**
 * Sets `now` (epoch ms) from the Redis server clock, so every process compares leases and run
 * times against one clock. Redis 6 needs effects replication before TIME is followed by writes;
 * Redis 7 always replicates effects (the call is then a no-op).
 */
export const SERVER_NOW = luaFragment({
  name: 'server-now',
  lua: `
if redis.replicate_commands then redis.replicate_commands() end
local server_time = redis.call('TIME')
local now = tonumber(server_time[1]) * 1000 + math.floor(tonumber(server_time[2]) / 1000)
`,
});
