/**
 * The job-hash fields a claim answers, in order: the claim script HMGETs exactly these and
 * `decodeClaimed` reads them by position.
 */
export const CLAIMED_FIELDS = [
  'id',
  'runId',
  'name',
  'queue',
  'payload',
  'tenantId',
  'idempotencyKey',
  'priority',
  'attempts',
  'maxAttempts',
  'enqueuedAt',
  'runAt',
  'leaseExpiresAt',
  'enqueuedBy',
  'traceparent',
  'workerId',
  'token',
] as const;

/** One of {@link CLAIMED_FIELDS}. */
export type ClaimedField = (typeof CLAIMED_FIELDS)[number];
