import { luaFragment } from '../../lua-script.js';

/**
 * Decodes an optional ARGV string: '' is absent (nil), anything else is the value after its
 * one-character '=' marker, so an empty string stays distinguishable from null. Encoded by
 * `optionalArg()` in TypeScript.
 */
export const OPTIONAL_ARG = luaFragment({
  name: 'optional-arg',
  lua: `
local function opt(value)
  if value == nil or value == '' then return nil end
  return string.sub(value, 2)
end
`,
});
