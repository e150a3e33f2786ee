import type { SettledJobs } from '../driver/wake.js';

/**
 * The most bytes of ids one settle notification carries: under Postgres' 8,000-byte NOTIFY
 * payload, and the same bound on Redis so a large batch costs its subscribers one short message.
 */
export const SETTLED_MESSAGE_MAX_BYTES = 7_900;

/**
 * The wire form of a settle wake, shared by the Postgres and Redis drivers: the settled job ids
 * joined by `\n` while they fit in {@link SETTLED_MESSAGE_MAX_BYTES}, else the empty string (a bare
 * marker: "jobs settled, re-read"). The drivers build it in SQL / Lua; this is the reference.
 */
export function settledMessage(ids: readonly string[]): string {
  const joined = ids.join('\n');
  return Buffer.byteLength(joined, 'utf8') <= SETTLED_MESSAGE_MAX_BYTES ? joined : '';
}

/**
 * Reads a settle wake's message back: the ids it names, or `null` for the bare marker. An id that
 * holds a `\n` is split (its awaiter is left to its poll, never woken for another job's settle
 * wrongly: a re-read is all a wake causes).
 */
export function parseSettledMessage(message: string): SettledJobs {
  return message === '' ? null : message.split('\n');
}
