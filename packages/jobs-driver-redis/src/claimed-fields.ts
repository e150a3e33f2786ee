/**
 * The job-hash fields a claim reads with one HMGET per row, in order. Everything else a claimed
 * job carries is known without reading the row: its id (the ready member), queue (the ready set),
 * token (made by the claim), lease deadline (one per claim) and worker id (the caller's).
 */
export const CLAIMED_FIELDS = [
  'runId',
  'name',
  'payload',
  'tenantId',
  'idempotencyKey',
  'priority',
  'attempts',
  'maxAttempts',
  'enqueuedAt',
  'runAt',
  'enqueuedBy',
  'traceparent',
] as const;

/** One of {@link CLAIMED_FIELDS}. */
export type ClaimedField = (typeof CLAIMED_FIELDS)[number];

/** What the claim script puts before the {@link CLAIMED_FIELDS} in each row of its reply. */
export const CLAIM_ROW_HEAD = ['id', 'queue', 'token'] as const;

/** A value of one claim reply row: {@link CLAIM_ROW_HEAD}, then {@link CLAIMED_FIELDS}. */
export type ClaimRowValue = (typeof CLAIM_ROW_HEAD)[number] | ClaimedField;

/**
 * The 0-based position of each value in one row of the claim reply, as `decodeClaimReply` reads it
 * (`attempts` there is already the claimed attempt, counted).
 */
export const CLAIM_ROW_INDEX = Object.fromEntries(
  [...CLAIM_ROW_HEAD, ...CLAIMED_FIELDS].map((name, i) => [name, i]),
) as Readonly<Record<ClaimRowValue, number>>;
