/** Socket codes of a connection that never opened: no command of the call reached the server. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/** ioredis messages of a command refused before it was written to the socket. */
const NEVER_SENT_MESSAGES = ["Stream isn't writeable", 'Connection in subscriber mode'];

/** Server replies that refuse the command as a whole: it did not run. */
const REFUSED_REPLY_PREFIXES = ['LOADING', 'MASTERDOWN', 'CLUSTERDOWN', 'TRYAGAIN', 'READONLY', 'BUSY'];

/**
 * Whether a command that failed for want of a connection may still have been applied by the
 * server. A command that timed out, or whose connection dropped after it was written, may have
 * run to completion: the reply was lost, not the write. Only a command that provably never
 * reached the server (no connection, refused before writing, a refusing reply) answers false.
 */
export function mayHaveBeenApplied(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NEVER_SENT_CODES.has(code)) return false;
  const message = error.message ?? '';
  if (NEVER_SENT_MESSAGES.some((text) => message.includes(text))) return false;
  if (error.name === 'ReplyError' && REFUSED_REPLY_PREFIXES.some((prefix) => message.startsWith(prefix))) {
    return false;
  }
  return true;
}
