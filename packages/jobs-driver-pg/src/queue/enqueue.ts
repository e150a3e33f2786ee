import { JobsError } from '@x/jobs-core';
import type { EnqueueRequest, EnqueueResult } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { pgError } from '../errors.js';
import { jsonParam } from '../row-values.js';

/** Rows per SQL_ENQUEUE_MANY statement. */
const ENQUEUE_BATCH_SIZE = 1000;
/** Rounds of write-then-read-back before giving up (a key whose live rows keep finishing meanwhile). */
const MAX_ROUNDS = 5;

/** SQL_ENQUEUE_MANY's one row: how many it wrote, and which when not all. */
interface WrittenRow {
  readonly written: number | string;
  readonly ids: readonly string[] | null;
}

interface ReadbackRow {
  readonly ord: string | number;
  readonly id: string | null;
  readonly run_id: string | null;
}

/**
 * Writes one row (SQL_ENQUEUE); when it wrote nothing, answers the live row (or same-id row)
 * holding it, read back in a fresh snapshot. Under `onConflict: 'error'` a live duplicate throws
 * `X_JOB_DUPLICATE` (nothing written).
 */
export async function enqueueOne(ctx: DriverContext, request: EnqueueRequest): Promise<EnqueueResult> {
  const params = [
    request.id,
    request.runId,
    request.name,
    request.queue,
    jsonParam(request.payload ?? null),
    request.tenantId,
    request.idempotencyKey,
    request.priority,
    request.maxAttempts,
    request.runAt ?? null,
    request.enqueuedBy ?? null,
    request.traceparent ?? null,
  ];
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const rows = await ctx.query(ctx.sql.enqueue, params);
    if (rows.length > 0) return { id: request.id, runId: request.runId, deduped: false };
    const result = (await readBack(ctx, [request]))[0];
    if (result === undefined) continue;
    if (request.onConflict === 'error') {
      throw new JobsError(
        'X_JOB_DUPLICATE',
        `A live job already holds this idempotency key (job ${result.id}).`,
        {
          meta: { id: result.id, name: request.name },
        },
      );
    }
    return result;
  }
  throw contention();
}

/**
 * Writes many rows (SQL_ENQUEUE_MANY, one statement per 1,000), answering in request order. A key
 * or id repeated inside the batch dedupes to its first occurrence. Every request dedupes: its
 * `onConflict` is not read (the contract; core refuses `'error'` before a batch reaches here).
 */
export async function enqueueMany(
  ctx: DriverContext,
  requests: readonly EnqueueRequest[],
): Promise<readonly EnqueueResult[]> {
  const owner = firstOccurrences(requests);
  const uniqueIndexes: number[] = [];
  for (let index = 0; index < requests.length; index += 1)
    if (owner[index] === index) uniqueIndexes.push(index);
  const results: EnqueueResult[] = new Array(requests.length);
  for (let start = 0; start < uniqueIndexes.length; start += ENQUEUE_BATCH_SIZE) {
    const indexes = uniqueIndexes.slice(start, start + ENQUEUE_BATCH_SIZE);
    const written = await writeChunk(
      ctx,
      indexes.map((index) => requests[index] as EnqueueRequest),
    );
    written.forEach((result, offset) => {
      results[indexes[offset] as number] = result;
    });
  }
  for (let index = 0; index < requests.length; index += 1) {
    const first = owner[index] as number;
    if (first !== index) results[index] = { ...(results[first] as EnqueueResult), deduped: true };
  }
  return results;
}

/**
 * For each request, the index of the first request in the batch with its `(name, tenant, key)`
 * or its id (itself when none came earlier). NUL separates the parts: PostgreSQL text cannot
 * hold one, so no two different keys join to the same string that could be written.
 */
function firstOccurrences(requests: readonly EnqueueRequest[]): number[] {
  const firstByKey = new Map<string, number>();
  const firstById = new Map<string, number>();
  const owner: number[] = new Array(requests.length);
  for (let index = 0; index < requests.length; index += 1) {
    const request = requests[index] as EnqueueRequest;
    const key = `${request.name}\u0000${request.tenantId ?? ''}\u0000${request.idempotencyKey}`;
    const earlier = firstByKey.get(key) ?? firstById.get(request.id);
    if (earlier !== undefined) {
      owner[index] = earlier;
      continue;
    }
    firstByKey.set(key, index);
    firstById.set(request.id, index);
    owner[index] = index;
  }
  return owner;
}

async function writeChunk(ctx: DriverContext, chunk: readonly EnqueueRequest[]): Promise<EnqueueResult[]> {
  const results: (EnqueueResult | undefined)[] = new Array(chunk.length);
  let pending = chunk.map((_, index) => index);
  for (let round = 0; round < MAX_ROUNDS && pending.length > 0; round += 1) {
    const batch = pending.map((index) => chunk[index] as EnqueueRequest);
    const rows = await ctx.query<WrittenRow>(ctx.sql.enqueueMany, enqueueManyParams(batch));
    const written = Number(rows[0]?.written ?? 0);
    const wroteAll = written === batch.length;
    const wroteIds = new Set(wroteAll ? [] : (rows[0]?.ids ?? []));
    const unseen: number[] = [];
    for (const index of pending) {
      const request = chunk[index] as EnqueueRequest;
      if (wroteAll || wroteIds.has(request.id)) {
        results[index] = { id: request.id, runId: request.runId, deduped: false };
      } else {
        unseen.push(index);
      }
    }
    const found = await readBack(
      ctx,
      unseen.map((index) => chunk[index] as EnqueueRequest),
    );
    pending = [];
    unseen.forEach((index, offset) => {
      const result = found[offset];
      if (result === undefined) pending.push(index);
      else results[index] = result;
    });
  }
  if (pending.length > 0) throw contention();
  return results as EnqueueResult[];
}

/** SQL_ENQUEUE_MANY's twelve parallel arrays. */
function enqueueManyParams(batch: readonly EnqueueRequest[]): unknown[][] {
  return [
    batch.map((r) => r.id),
    batch.map((r) => r.runId),
    batch.map((r) => r.name),
    batch.map((r) => r.queue),
    batch.map((r) => jsonParam(r.payload ?? null)),
    batch.map((r) => r.tenantId),
    batch.map((r) => r.idempotencyKey),
    batch.map((r) => r.priority),
    batch.map((r) => r.maxAttempts),
    batch.map((r) => r.runAt ?? null),
    batch.map((r) => r.enqueuedBy ?? null),
    batch.map((r) => r.traceparent ?? null),
  ];
}

/**
 * SQL_ENQUEUE_READBACK for requests that wrote nothing: the live row (or same-id row) holding each,
 * as a dedupe; undefined where nothing holds it any more.
 */
async function readBack(
  ctx: DriverContext,
  requests: readonly EnqueueRequest[],
): Promise<(EnqueueResult | undefined)[]> {
  if (requests.length === 0) return [];
  const rows = await ctx.query<ReadbackRow>(ctx.sql.enqueueReadback, [
    requests.map((r) => r.name),
    requests.map((r) => r.tenantId),
    requests.map((r) => r.idempotencyKey),
    requests.map((r) => r.id),
  ]);
  const answers: (EnqueueResult | undefined)[] = new Array(requests.length).fill(undefined);
  for (const row of rows) {
    if (row.id !== null && row.run_id !== null) {
      answers[Number(row.ord) - 1] = { id: row.id, runId: row.run_id, deduped: true };
    }
  }
  return answers;
}

function contention(): JobsError {
  return pgError(
    'X_PG_TRANSACTION_CONFLICT',
    'The key kept changing hands while enqueueing (live rows finishing meanwhile); nothing was lost, retry.',
    { retryable: true },
  );
}
