import { type EnqueueRequest, type EnqueueResult, JobsError } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';
import { pgError } from '../errors.js';
import { jsonParam } from '../row-values.js';

/** Rows per SQL_ENQUEUE_MANY statement. */
const ENQUEUE_BATCH_SIZE = 1000;
/** Rounds of write-then-read-back before giving up (a key whose live rows keep finishing meanwhile). */
const MAX_ROUNDS = 5;

interface ReadbackRow {
  readonly ord: string | number;
  readonly id: string | null;
  readonly run_id: string | null;
}

/**
 * Writes one row or answers the live row holding its key (SQL_ENQUEUE), reading back a winner the
 * statement's snapshot could not see. Under `onConflict: 'error'` a live duplicate throws
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
    const rows = await ctx.query<{ id: string; run_id: string; deduped: boolean }>(ctx.sql.enqueue, params);
    const row = rows[0];
    const result =
      row !== undefined
        ? { id: row.id, runId: row.run_id, deduped: row.deduped }
        : (await readBack(ctx, [request]))[0];
    if (result === undefined) continue;
    if (result.deduped && request.onConflict === 'error') {
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
 * or id repeated inside the batch dedupes to its first occurrence.
 */
export async function enqueueMany(
  ctx: DriverContext,
  requests: readonly EnqueueRequest[],
): Promise<readonly EnqueueResult[]> {
  if (requests.some((request) => request.onConflict === 'error')) {
    throw new JobsError(
      'X_JOB_ENQUEUE_OPTIONS_INVALID',
      "enqueueMany takes onConflict: 'dedupe' only; enqueue one at a time to get X_JOB_DUPLICATE.",
      { meta: { field: 'onConflict' } },
    );
  }
  const firstOf = new Map<string, number>();
  const firstById = new Map<string, number>();
  const owner: number[] = [];
  const unique: EnqueueRequest[] = [];
  requests.forEach((request, index) => {
    const key = JSON.stringify([request.name, request.tenantId ?? '', request.idempotencyKey]);
    const earlier = firstOf.get(key) ?? firstById.get(request.id);
    if (earlier !== undefined) {
      owner[index] = earlier;
      return;
    }
    firstOf.set(key, index);
    firstById.set(request.id, index);
    owner[index] = index;
    unique.push(request);
  });
  const written = new Map<number, EnqueueResult>();
  const uniqueIndexes = requests.map((_, index) => index).filter((index) => owner[index] === index);
  for (let start = 0; start < unique.length; start += ENQUEUE_BATCH_SIZE) {
    const chunk = unique.slice(start, start + ENQUEUE_BATCH_SIZE);
    const results = await writeChunk(ctx, chunk);
    for (const [offset, result] of results.entries())
      written.set(uniqueIndexes[start + offset] as number, result);
  }
  return requests.map((_, index) => {
    const own = owner[index] as number;
    const result = written.get(own) as EnqueueResult;
    return own === index ? result : { ...result, deduped: true };
  });
}

async function writeChunk(ctx: DriverContext, chunk: readonly EnqueueRequest[]): Promise<EnqueueResult[]> {
  const results: (EnqueueResult | undefined)[] = new Array(chunk.length);
  let pending = chunk.map((_, index) => index);
  for (let round = 0; round < MAX_ROUNDS && pending.length > 0; round += 1) {
    const batch = pending.map((index) => chunk[index] as EnqueueRequest);
    const rows = await ctx.query<ReadbackRow & { deduped: boolean }>(ctx.sql.enqueueMany, [
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
    ]);
    const unseen: number[] = [];
    for (const row of rows) {
      const index = pending[Number(row.ord) - 1] as number;
      if (row.id === null || row.run_id === null) unseen.push(index);
      else results[index] = { id: row.id, runId: row.run_id, deduped: row.deduped };
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
