import { luaFragment } from '../../lua-script.js';

/**
 * A stored step is `<position>\t<startedAt>\t<status>\t<completedAt>\t<JSON {name, output, error}>`:
 * the fields a script compares sit before the JSON, so no script decodes (and re-encodes) outputs.
 * `decodeStep()` in TypeScript reads the same shape.
 */
export const STEP_ENCODING = luaFragment({
  name: 'step-encoding',
  lua: `
local function step_head(value)
  return string.match(value, '^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t')
end

local function encode_step(position, started_at, status, completed_at, body)
  return position .. '\\t' .. started_at .. '\\t' .. status .. '\\t' .. completed_at .. '\\t' .. body
end
`,
});
