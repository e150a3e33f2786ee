/**
 * For driver authors: the socket-level error codes Node raises (on `error.code`, or `errno` for a
 * native client) when a server cannot be reached or drops the connection. A driver classifies an
 * error carrying one as `X_DRIVER_UNAVAILABLE` (retryable): the Postgres and Redis drivers do.
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ERR_SOCKET_CLOSED',
]);

/** True when `code` is one of {@link NETWORK_ERROR_CODES}. */
export function isNetworkErrorCode(code: unknown): boolean {
  return typeof code === 'string' && NETWORK_ERROR_CODES.has(code);
}
