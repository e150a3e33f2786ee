import type {
  ClaimedJob,
  JobErrorRecord,
  JobProgress,
  JobRecord,
  JobState,
  JsonValue,
  StopReason,
} from '@x/jobs-core';
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
 * Reads the claim script's reply, `[leaseExpiresAt, rowsJson]`: each row is
 * {@link CLAIM_ROW_INDEX}-ordered (the claimed hash fields, absent ones `false`, then id, queue,
 * token); the worker id is the claimer's own.
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

/** One row of the claim reply: strings, the counted attempt, and `false` for an absent field. */
type ClaimRow = readonly (string | number | false)[];

const AT = CLAIM_ROW_INDEX;

function decodeClaimRow(row: ClaimRow, leaseExpiresAt: number, workerId: string): ClaimedJob {
  return {
    id: mustRow(row, 'id'),
    runId: mustRow(row, 'runId'),
    name: mustRow(row, 'name'),
    queue: mustRow(row, 'queue'),
    payload: parseJson(mustRow(row, 'payload')),
    tenantId: optionalRow(row[AT.tenantId]),
    idempotencyKey: mustRow(row, 'idempotencyKey'),
    priority: Number(mustRow(row, 'priority')),
    attempt: Number(mustRow(row, 'attempts')),
    maxAttempts: Number(mustRow(row, 'maxAttempts')),
    enqueuedAt: Number(mustRow(row, 'enqueuedAt')),
    runAt: Number(mustRow(row, 'runAt')),
    leaseExpiresAt,
    enqueuedBy: optionalRow(row[AT.enqueuedBy]),
    traceparent: optionalRow(row[AT.traceparent]),
    claim: { workerId, token: mustRow(row, 'token') },
  };
}

function mustRow(row: ClaimRow, name: ClaimRowValue): string {
  const value = row[AT[name]];
  if (value === false || value === undefined)
    throw redisError('X_REDIS_REPLY_INVALID', `A claimed row has no ${name}.`, { field: name });
  return String(value);
}

function optionalRow(value: string | number | false | undefined): string | null {
  return value === false || value === undefined ? null : String(value);
}

function required(hash: JobHash, name: string): string {
  const value = hash[name];
  if (value === undefined)
    throw redisError('X_REDIS_REPLY_INVALID', `A job row has no ${name}.`, { field: name });
  return value;
}

function optionalNumber(value: string | undefined): number | null {
  return value === undefined ? null : Number(value);
}

function parseJson(text: string): JsonValue {
  return JSON.parse(text) as JsonValue;
}
