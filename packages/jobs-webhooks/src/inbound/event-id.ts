const PRINTABLE_ASCII = /^[\x20-\x7e]{1,256}$/;

/**
 * True when `eventId` can be the dedupe key: a string of 1–256 printable ASCII characters
 * (U+0020–U+007E). Anything else is answered 422 and never echoed back.
 */
export function isValidEventId(eventId: unknown): eventId is string {
  return typeof eventId === 'string' && PRINTABLE_ASCII.test(eventId);
}
