import type { JobErrorRecord, JobRecord, JobState, JsonValue, StopReason } from '@x/jobs-core';
import type { AttemptErrorRecord, ClaimedJob, JobProgress } from '@x/jobs-core/driver';
import { CLAIM_ROW_INDEX, type ClaimRowValue } from './claimed-fields.js';
import { redisError } from './errors.js';

/** A job hash as field → value. */
export type JobHash = Readonly<Record<string, string>>;

/** Turns HGETALL's flat `[field, value, …]` reply into an object. */
export function hashFromFlat(flat: readonly unknown[]): JobHash {
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[String(flat[i])] = String(flat[i + 1]);
  return hash;
}

/** Reads a job hash as the row introspection answers. */
export function decodeJobRecord(hash: JobHash): JobRecord {
  return {
    id: required(hash, 'id'),
    runId: required(hash, 'runId'),
    name: required(hash, 'name'),
    queue: required(hash, 'queue'),
    state: required(hash, 'state') as JobState,
    payload: parseJson(hash.payload ?? 'null'),
    tenantId: hash.tenantId ?? null,
    idempotencyKey: required(hash, 'idempotencyKey'),
    priority: Number(hash.priority ?? 0),
    attempts: Number(hash.attempts ?? 0),
    maxAttempts: Number(required(hash, 'maxAttempts')),
    enqueuedAt: Number(required(hash, 'enqueuedAt')),
    runAt: Number(required(hash, 'runAt')),
    // A claim empties startedAt; its start sets it.
    startedAt: optionalNumber(hash.startedAt),
    finishedAt: optionalNumber(hash.finishedAt),
    // An acked row keeps its last lease fields (see the ack-row fragment): a lease is shown only
    // while the row runs.
    leaseExpiresAt: hash.state === 'running' ? optionalNumber(hash.leaseExpiresAt) : null,
    workerId: hash.workerId ?? null,
    lastError: hash.lastError === undefined ? null : (parseJson(hash.lastError) as unknown as JobErrorRecord),
    stopReason: (hash.stopReason ?? null) as StopReason | null,
    result: hash.result === undefined ? null : parseJson(hash.result),
    progress: hash.progress === undefined ? null : (parseJson(hash.progress) as unknown as JobProgress),
    waitingFor: hash.waitingFor ?? null,
    cancelReason: hash.cancelReason ?? null,
    enqueuedBy: hash.enqueuedBy ?? null,
    traceparent: hash.traceparent ?? null,
  };
}

/**
 * The row's failed attempts' records (the `err:<n>` fields the attempt-error-record script writes),
 * oldest first.
 */
export function decodeAttemptErrors(hash: JobHash): AttemptErrorRecord[] {
  const numbered: [number, string][] = [];
  for (const [field, value] of Object.entries(hash)) {
    if (/^err:\d+$/.test(field)) numbered.push([Number(field.slice(4)), value]);
  }
  numbered.sort((a, b) => a[0] - b[0]);
  return numbered.map(([, value]) => JSON.parse(value) as AttemptErrorRecord);
}

/**
 * Reads the claim script's reply, `[leaseExpiresAt, rowsJson]`: each row is
 * {@link CLAIM_ROW_INDEX}-ordered (the claimed hash fields, absent ones `false`, then id, queue,
 * token), every value a string; the worker id is the claimer's own.
 */
export function decodeClaimReply(reply: unknown, workerId: string): ClaimedJob[] {
  if (!Array.isArray(reply) || typeof reply[1] !== 'string') {
    throw redisError('X_REDIS_REPLY_INVALID', 'A claim answered something other than [lease, rows].');
  }
  const leaseExpiresAt = Number(reply[0]);
  const rows = JSON.parse(reply[1]) as readonly ClaimRow[];
  const jobs: ClaimedJob[] = [];
  for (const row of rows) jobs.push(decodeClaimRow(row, leaseExpiresAt, workerId));
  return jobs;
}

/** One row of the claim reply: strings, and `false` for an absent field. */
type ClaimRow = readonly (string | false)[];

/** Each value's position in a claim reply row, resolved once (a constant index per field). */
const {
  id: ID,
  runId: RUN_ID,
  name: NAME,
  queue: QUEUE,
  payload: PAYLOAD,
  tenantId: TENANT_ID,
  idempotencyKey: IDEMPOTENCY_KEY,
  priority: PRIORITY,
  attempts: ATTEMPTS,
  maxAttempts: MAX_ATTEMPTS,
  enqueuedAt: ENQUEUED_AT,
  runAt: RUN_AT,
  enqueuedBy: ENQUEUED_BY,
  traceparent: TRACEPARENT,
  state: STATE,
  token: TOKEN,
  started: STARTED,
} = CLAIM_ROW_INDEX;

function decodeClaimRow(row: ClaimRow, leaseExpiresAt: number, workerId: string): ClaimedJob {
  return {
    id: text(row, ID),
    runId: text(row, RUN_ID),
    name: text(row, NAME),
    queue: text(row, QUEUE),
    payload: parseJson(text(row, PAYLOAD)),
    tenantId: optionalText(row, TENANT_ID),
    idempotencyKey: text(row, IDEMPOTENCY_KEY),
    priority: Number(text(row, PRIORITY)),
    attempt: Number(text(row, ATTEMPTS)) + 1,
    maxAttempts: Number(text(row, MAX_ATTEMPTS)),
    enqueuedAt: Number(text(row, ENQUEUED_AT)),
    runAt: Number(text(row, RUN_AT)),
    leaseExpiresAt,
    enqueuedBy: optionalText(row, ENQUEUED_BY),
    traceparent: optionalText(row, TRACEPARENT),
    claim: { workerId, token: text(row, TOKEN) },
    started: row[STARTED] === '1',
    lapsed: row[STATE] === 'running',
  };
}

/** The string at position `at` of a claim row; a missing one is a reply the driver cannot read. */
function text(row: ClaimRow, at: number): string {
  const value = row[at];
  if (typeof value !== 'string') {
    const field = Object.keys(CLAIM_ROW_INDEX).find((name) => CLAIM_ROW_INDEX[name as ClaimRowValue] === at);
    throw redisError('X_REDIS_REPLY_INVALID', `A claimed row has no ${field}.`, { field });
  }
  return value;
}

function optionalText(row: ClaimRow, at: number): string | null {
  const value = row[at];
  return typeof value === 'string' ? value : null;
}

function required(hash: JobHash, name: string): string {
  const value = hash[name];
  if (value === undefined)
    throw redisError('X_REDIS_REPLY_INVALID', `A job row has no ${name}.`, { field: name });
  return value;
}

function optionalNumber(value: string | undefined): number | null {
  return value === undefined || value === '' ? null : Number(value);
}

function parseJson(text: string): JsonValue {
  return JSON.parse(text) as JsonValue;
}
