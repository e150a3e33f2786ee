import { redisError } from './errors.js';

/** A batched script's flag for a call that landed: the character '1'. */
const LANDED = 0x31;

/**
 * Reads the reply of a batched script (ack-many, start) that answers one `'1'`/`'0'` character per
 * call, in order; anything else is `X_REDIS_REPLY_INVALID`.
 */
export function flagsOf(reply: unknown, count: number, script: string): boolean[] {
  if (typeof reply !== 'string' || reply.length !== count) {
    throw redisError('X_REDIS_REPLY_INVALID', `${script} answered something other than one flag per call.`, {
      script,
    });
  }
  const flags = new Array<boolean>(count);
  for (let i = 0; i < count; i += 1) flags[i] = reply.charCodeAt(i) === LANDED;
  return flags;
}
