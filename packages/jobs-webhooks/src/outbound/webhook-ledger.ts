/**
 * How one delivery attempt ended:
 * - `delivered`: a 2xx;
 * - `failed`: a 5xx, 408 or 425, or a network error (retried with the backoff);
 * - `timeout`: no response within `timeout` (retried with the backoff);
 * - `throttled`: a 429, or a 503 with `Retry-After` (retried when the receiver said);
 * - `rejected`: another 4xx, or a redirect (terminal);
 * - `gone`: a 410 (terminal; the endpoint is disabled);
 * - `disabled`: the endpoint was disabled before the request (terminal, nothing sent);
 * - `invalid`: the endpoint or event was unknown or unusable (terminal, nothing sent);
 * - `interrupted`: the job's own signal fired (drain, cancel, lost lease) mid-request.
 */
export type WebhookAttemptStatus =
  | 'delivered'
  | 'failed'
  | 'timeout'
  | 'throttled'
  | 'rejected'
  | 'gone'
  | 'disabled'
  | 'invalid'
  | 'interrupted';

/** The statuses that count toward `disableAfter` (a `delivered` resets the count; the rest leave it). */
export const FAILED_ATTEMPT_STATUSES: ReadonlySet<WebhookAttemptStatus> = new Set([
  'failed',
  'timeout',
  'throttled',
  'rejected',
  'gone',
]);

/** One ledger row: what one attempt did. It never holds the secret, the body or a header value. */
export interface WebhookAttempt {
  readonly endpointId: string;
  readonly eventId: string;
  /** The delivery job's row id and attempt number (1-based). */
  readonly jobId: string;
  readonly attempt: number;
  readonly status: WebhookAttemptStatus;
  /** The HTTP status the receiver answered, or null when none arrived. */
  readonly responseCode: number | null;
  /** From the request's start to its end (or to the refusal), in ms. */
  readonly durationMs: number;
  /** Epoch ms when the attempt started. */
  readonly startedAt: number;
  /** The code the attempt failed with (`X_WEBHOOK_…`), null when delivered. */
  readonly errorCode: string | null;
}

/** Why an endpoint was disabled: `disableAfter` consecutive failures, or a 410. */
export type WebhookDisableReason = 'failures' | 'gone';

/**
 * Where the delivery history and the disabled endpoints live: the app's own table in production
 * ({@link memoryWebhookLedger} in tests and dev). Every method may be called concurrently by
 * deliveries to one endpoint; the count `record` answers decides the disable, so a SQL ledger
 * should compute it in the statement that inserts the row.
 */
export interface WebhookLedger {
  /**
   * Appends one attempt and answers the endpoint's consecutive failures after it: the failed
   * attempts since its last `delivered` one ({@link FAILED_ATTEMPT_STATUSES}).
   */
  record(attempt: WebhookAttempt): Promise<{ readonly consecutiveFailures: number }>;
  /** Marks the endpoint disabled (idempotent). */
  disable(endpointId: string, reason: WebhookDisableReason): Promise<void>;
  /** Why the endpoint is disabled, or null when it is not. */
  disabled(endpointId: string): Promise<WebhookDisableReason | null>;
}
