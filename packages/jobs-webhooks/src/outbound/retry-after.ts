/**
 * The seconds a `Retry-After` header asks for: delta-seconds (`'120'`) or an HTTP date (how far it
 * lies after `nowMs`, never negative). Undefined when the header is absent or unreadable, so the
 * retry falls back to the backoff. The job's `retry.maxDelay` clamps it.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text);
  // An HTTP date names its day and month ('Tue, 01 Dec 2026 12:00:00 GMT'); Date.parse alone
  // would read '-5' as a year.
  const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
