import { luaFragment } from '../../lua-script.js';

/**
 * Index writes gathered per key and sent as one variadic command each (`ZADD key s1 m1 s2 m2 …`,
 * `ZREM key m1 m2 …`), in slices small enough for Lua's `unpack`: a script that moves many rows
 * touches each index once, not once per row.
 */
export const BULK_WRITE = luaFragment({
  name: 'bulk-write',
  lua: `
-- A pending write: key -> flat argument list. Adds a (or a, b: a score and its member); no table
-- is built per call.
local function bulk_add(pending, key, a, b)
  local args = pending[key]
  if args == nil then
    args = {}
    pending[key] = args
  end
  local n = #args + 1
  args[n] = a
  if b ~= nil then args[n + 1] = b end
end

-- Sends command once per key (per slice of 4,000 arguments; stride keeps score/member pairs whole).
local function bulk_flush(command, pending, stride)
  local slice = 4000 - (4000 % stride)
  for key, args in pairs(pending) do
    for first = 1, #args, slice do
      redis.call(command, key, unpack(args, first, math.min(first + slice - 1, #args)))
    end
  end
end
`,
});
