import { defineLuaScript } from '../lua-script.js';
import { KEY_FUNCTIONS } from './includes/key-functions.lua.js';
import { OPTIONAL_ARG } from './includes/optional-arg.lua.js';

/** How many index entries one listing call examines at most before answering a short page. */
const JOB_LIST_SCAN_MAX = 20_000;

/** One page of rows, newest enqueued first, filtered. */
export const JOB_LIST_SCRIPT = defineLuaScript({
  name: 'job-list',
  contract: `
Walks the listing index from the cursor (newest enqueued first) and answers up to ARGV[2] rows
matching every given filter. It examines at most ${JOB_LIST_SCAN_MAX} entries; when that budget runs out first
the page is short and the cursor still points onward. Index entries whose row has expired are
dropped on the way.
KEYS[1] base    job:<id> is built from it
KEYS[2] jobs    sorted set: id by sequence
ARGV[1] cursor: the sequence to continue below ('' = from the newest)    ARGV[2] limit
ARGV[3] queue    ARGV[4] state    ARGV[5] name    ARGV[6] tenantId    (each optional)
Returns: {next cursor ('' on the last page), {flat job hash, ...}}.
`,
  keys: ['base', 'jobs'],
  includes: [KEY_FUNCTIONS, OPTIONAL_ARG],
  body: `
local limit = tonumber(ARGV[2])
local want = { queue = opt(ARGV[3]), state = opt(ARGV[4]), name = opt(ARGV[5]), tenantId = opt(ARGV[6]) }
local upper = '+inf'
if ARGV[1] ~= '' then upper = '(' .. ARGV[1] end

local rows = {}
local last_seq = {}
local scanned = 0
local exhausted = false
-- Collects limit + 1 matches: the extra one only proves there is a next page.
while #rows <= limit and scanned < ${JOB_LIST_SCAN_MAX} do
  local batch = redis.call('ZREVRANGEBYSCORE', K_JOBS, upper, '-inf', 'WITHSCORES', 'LIMIT', 0, 200)
  if #batch == 0 then
    exhausted = true
    break
  end
  for j = 1, #batch, 2 do
    local id, seq = batch[j], batch[j + 1]
    scanned = scanned + 1
    upper = '(' .. seq
    local f = redis.call('HMGET', job_key(id), 'queue', 'state', 'name', 'tenantId')
    if not f[1] then
      redis.call('ZREM', K_JOBS, id)
    elseif (want.queue == nil or want.queue == f[1]) and (want.state == nil or want.state == f[2])
      and (want.name == nil or want.name == f[3]) and (want.tenantId == nil or want.tenantId == f[4]) then
      rows[#rows + 1] = redis.call('HGETALL', job_key(id))
      last_seq[#rows] = seq
      if #rows > limit then break end
    end
  end
end

if #rows > limit then
  rows[#rows] = nil
  return { last_seq[limit], rows }
end
if exhausted then return { '', rows } end
return { string.sub(upper, 2), rows }
`,
});
