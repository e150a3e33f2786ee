import type {
  ClaimedJob,
  JobErrorRecord,
  JobProgress,
  JobRecord,
  JobState,
  JsonValue,
  StopReason,
} from '@x/jobs-core';
import { CLAIMED_FIELDS, type ClaimedField } from './claimed-fields.js';
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
    leaseExpiresAt: optionalNumber(hash.leaseExpiresAt),
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

/** Reads one row of the claim script's reply: the values of {@link CLAIMED_FIELDS}, by position. */
export function decodeClaimedJob(values: readonly unknown[]): ClaimedJob {
  const field = (name: ClaimedField): string | null => {
    const value = values[CLAIMED_FIELDS.indexOf(name)];
    return value === null || value === undefined ? null : String(value);
  };
  const must = (name: ClaimedField): string => {
    const value = field(name);
    if (value === null)
      throw redisError('X_REDIS_REPLY_INVALID', `A claimed row has no ${name}.`, { field: name });
    return value;
  };
  return {
    id: must('id'),
    runId: must('runId'),
    name: must('name'),
    queue: must('queue'),
    payload: parseJson(must('payload')),
    tenantId: field('tenantId'),
    idempotencyKey: must('idempotencyKey'),
    priority: Number(must('priority')),
    attempt: Number(must('attempts')),
    maxAttempts: Number(must('maxAttempts')),
    enqueuedAt: Number(must('enqueuedAt')),
    runAt: Number(must('runAt')),
    leaseExpiresAt: Number(must('leaseExpiresAt')),
    enqueuedBy: field('enqueuedBy'),
    traceparent: field('traceparent'),
    claim: { workerId: must('workerId'), token: must('token') },
  };
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
