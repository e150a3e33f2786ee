import { defineLuaScript } from '../lua-script.js';
import { JOB_ROW } from './includes/job-row.lua.js';
import { SERVER_NOW } from './includes/server-now.lua.js';

/**
 * Records one failed attempt on its row, fenced on the claim token. The records live in the job
 * hash itself (fields `err:<n>`), so they expire, are purged and are removed with the row — no
 * script that deletes a row has to know them — and a row keeps at most the newest ARGV[4].
 */
export const ATTEMPT_ERROR_RECORD_SCRIPT = defineLuaScript({
  name: 'attempt-error-record',
  contract: `
Appends one failed attempt's record to the row when it is running under the token: field
err:<n> (n counts up in errSeq) holds the record JSON with "at" (the server's clock, epoch ms)
put first; err:<n - ARGV[4]> is deleted, so the newest ARGV[4] stay. errToken remembers the claim
that recorded: the same claim recording again (a settle retried after a lost reply) writes nothing.
The driver runs it right before the retry or dead nack of the same claim.
KEYS[1] base    job:<id> is built from it
ARGV[1] job id    ARGV[2] claim token    ARGV[3] record JSON (an object)    ARGV[4] records kept
Returns: 1 when recorded (now or before, by this claim), 0 when the claim no longer holds the row.
`,
  keys: ['base'],
  includes: [SERVER_NOW, JOB_ROW],
  body: `
local row = fenced_row(ARGV[1], ARGV[2])
if row == nil then return 0 end
local key = job_key(row.id)
if redis.call('HGET', key, 'errToken') == ARGV[2] then return 1 end
local n = redis.call('HINCRBY', key, 'errSeq', 1)
redis.call('HSET', key, 'err:' .. n, '{"at":' .. string.format('%d', now) .. ',' .. string.sub(ARGV[3], 2),
  'errToken', ARGV[2])
local kept = tonumber(ARGV[4])
if n > kept then redis.call('HDEL', key, 'err:' .. (n - kept)) end
return 1
`,
});
