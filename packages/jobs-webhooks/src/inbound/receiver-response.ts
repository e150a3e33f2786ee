import type { WebhookErrorCode } from '../errors.js';

/** A JSON response. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A refusal: the status and the code, never anything the request carried. */
export function refusal(
  status: number,
  code: WebhookErrorCode | 'X_JOB_INPUT_INVALID',
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, { error: code }, headers);
}
