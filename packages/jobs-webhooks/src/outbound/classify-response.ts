import { parseRetryAfter } from './retry-after.js';

/** What a receiver's answer means for the delivery. */
export type ResponseVerdict =
  | { readonly status: 'delivered' }
  | { readonly status: 'gone' }
  | { readonly status: 'throttled'; readonly retryAfterSeconds: number | undefined }
  | { readonly status: 'failed' }
  | { readonly status: 'rejected' };

/**
 * Classifies an HTTP answer, purely:
 * - 2xx → `delivered`;
 * - 410 → `gone` (the receiver says the endpoint will never come back);
 * - 429, and 503 with a `Retry-After` → `throttled`, with the seconds it named;
 * - 5xx, 408 and 425 → `failed` (the receiver may recover: retry with the backoff);
 * - any other 4xx, and 3xx (redirects are not followed: a signed body is never re-sent to a URL
 *   nobody configured) → `rejected`, since the same request will be refused again.
 */
export function classifyResponse(code: number, retryAfter: string | null, nowMs: number): ResponseVerdict {
  if (code >= 200 && code < 300) return { status: 'delivered' };
  if (code === 410) return { status: 'gone' };
  if (code === 429 || (code === 503 && retryAfter !== null)) {
    return { status: 'throttled', retryAfterSeconds: parseRetryAfter(retryAfter, nowMs) };
  }
  if (code >= 500 || code === 408 || code === 425) return { status: 'failed' };
  return { status: 'rejected' };
}
