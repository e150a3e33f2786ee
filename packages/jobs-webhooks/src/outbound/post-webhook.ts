import { classifyResponse } from './classify-response.js';
import type { WebhookAttemptStatus } from './webhook-ledger.js';

/** One signed POST, ready to send. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The request's own ceiling, in ms. */
  readonly timeoutMs: number;
  /** The job's signal: drain, cancel, lost lease. */
  readonly signal: AbortSignal;
  /** The clock an HTTP-date `Retry-After` is read against. */
  readonly now: () => number;
}

/** How the POST ended: the ledger status, the response code, and what a retry needs. */
export interface PostOutcome {
  readonly status: WebhookAttemptStatus;
  readonly responseCode: number | null;
  readonly retryAfterSeconds?: number | undefined;
  /** The network error, or the job signal's reason for `interrupted`. */
  readonly cause?: unknown;
}

/**
 * Sends one POST with the global `fetch`, bounded by both the job's signal and `timeoutMs`, and
 * never following a redirect. The response body is not read (only its status and `Retry-After`
 * matter) and is cancelled so the connection is freed. Never throws: every ending is an outcome —
 * `interrupted` when the job's signal fired, `timeout` when the ceiling did, `failed` for a
 * network error, else the status's {@link classifyResponse} verdict.
 */
export async function postWebhook(request: WebhookRequest): Promise<PostOutcome> {
  const ceiling = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.any([request.signal, ceiling]),
    });
    await response.body?.cancel().catch(() => undefined);
    const verdict = classifyResponse(response.status, response.headers.get('retry-after'), request.now());
    return { ...verdict, responseCode: response.status };
  } catch (error) {
    if (request.signal.aborted)
      return { status: 'interrupted', responseCode: null, cause: request.signal.reason };
    if (ceiling.aborted) return { status: 'timeout', responseCode: null };
    return { status: 'failed', responseCode: null, cause: error };
  }
}
