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
  // Read before the claim rewrites it: 'running' means the row was taken from a lapsed lease.
  'state',
] as const;

/** One of {@link CLAIMED_FIELDS}. */
export type ClaimedField = (typeof CLAIMED_FIELDS)[number];

/** What the claim script appends after the {@link CLAIMED_FIELDS} in each row of its reply. */
export const CLAIM_ROW_TAIL = ['id', 'queue', 'token', 'started'] as const;

/** A value of one claim reply row: {@link CLAIMED_FIELDS}, then {@link CLAIM_ROW_TAIL}. */
export type ClaimRowValue = ClaimedField | (typeof CLAIM_ROW_TAIL)[number];

/**
 * The 0-based position of each value in one row of the claim reply, as `decodeClaimReply` reads it
 * (`attempts` there is the attempts started before the claim: the claimed attempt is one more).
 */
export const CLAIM_ROW_INDEX = Object.fromEntries(
  [...CLAIMED_FIELDS, ...CLAIM_ROW_TAIL].map((name, i) => [name, i]),
) as Readonly<Record<ClaimRowValue, number>>;
