import { luaFragment } from '../../lua-script.js';

/**
 * Per-row key builders, computed from `K_BASE` (the hash-tagged prefix) so they share its Cluster
 * slot. They mirror `keySpace()` in TypeScript.
 */
export const KEY_FUNCTIONS = luaFragment({
  name: 'key-functions',
  keys: ['base'],
  lua: `
local function job_key(id) return K_BASE .. 'job:' .. id end
local function steps_key(run_id) return K_BASE .. 'steps:' .. run_id end
local function state_key(state, queue) return K_BASE .. state .. ':' .. queue end
local function waiting_key(event) return K_BASE .. 'waiting:' .. event end
local function events_key(event) return K_BASE .. 'events:' .. event end
-- Fair claiming (fairness: 'tenant'): the set of fair queues, each fair queue's tenants with
-- mirrored ready rows, and one tenant's mirror of its ready rows (a null tenant is '').
local function fair_queues_key() return K_BASE .. 'fair' end
local function fair_tenants_key(queue) return K_BASE .. 'fair-tenants:' .. queue end
local function fair_ready_key(queue, tenant) return K_BASE .. 'fair-ready:' .. #queue .. ':' .. queue .. ':' .. tenant end
-- The service a fair queue gave: its tenants' counters (a hash, tenant -> served units) and its clock.
local function fair_served_key(queue) return K_BASE .. 'fair-served:' .. queue end
local function fair_clock_key(queue) return K_BASE .. 'fair-clock:' .. queue end
`,
});
