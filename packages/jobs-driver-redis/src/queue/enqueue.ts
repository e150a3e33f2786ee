import type { EnqueueRequest, EnqueueResult } from '@x/jobs-core/driver';
import { callScript, type DriverContext } from '../driver-context.js';
import { ENQUEUE_SCRIPT } from '../lua/enqueue.lua.js';
import { optionalArg } from '../optional-arg.js';

/** Requests per enqueue script call (the contract's batch size). */
const ENQUEUE_CHUNK = 1000;

/** One row (the enqueue script with one request), honouring its `onConflict`. */
export async function enqueueOne(context: DriverContext, request: EnqueueRequest): Promise<EnqueueResult> {
  const [result] = await enqueueChunk(context, 'enqueue', [request], request.onConflict ?? 'dedupe');
  return result!;
}

/**
 * Many rows, {@link ENQUEUE_CHUNK} per script call, answering in request order. Every request
 * dedupes: its `onConflict` is not read (the contract; core refuses `'error'` before a batch).
 */
export async function enqueueMany(
  context: DriverContext,
  requests: readonly EnqueueRequest[],
): Promise<readonly EnqueueResult[]> {
  const results: EnqueueResult[] = [];
  for (let start = 0; start < requests.length; start += ENQUEUE_CHUNK) {
    const chunk = requests.slice(start, start + ENQUEUE_CHUNK);
    results.push(...(await enqueueChunk(context, 'enqueueMany', chunk, 'dedupe')));
  }
  if (requests.length === 0) await context.connection.run('enqueueMany', async () => undefined);
  return results;
}

async function enqueueChunk(
  context: DriverContext,
  operation: string,
  requests: readonly EnqueueRequest[],
  onConflict: 'dedupe' | 'error',
): Promise<EnqueueResult[]> {
  const args: (string | number)[] = [requests.length];
  for (const request of requests) {
    args.push(
      request.id,
      request.runId,
      request.name,
      request.queue,
      JSON.stringify(request.payload ?? null),
      optionalArg(request.tenantId),
      request.idempotencyKey,
      String(request.priority ?? 0),
      request.runAt === undefined ? '' : Math.round(request.runAt),
      request.maxAttempts,
      onConflict,
      optionalArg(request.enqueuedBy),
      optionalArg(request.traceparent),
      JSON.stringify([request.name, request.tenantId ?? null, request.idempotencyKey]),
    );
  }
  const reply = (await callScript(context, operation, ENQUEUE_SCRIPT, args)) as (string | number)[];
  const results: EnqueueResult[] = requests.map((request) => ({
    id: request.id,
    runId: request.runId,
    deduped: false,
  }));
  for (let k = 0; k + 2 < reply.length; k += 3) {
    results[Number(reply[k]) - 1] = { id: String(reply[k + 1]), runId: String(reply[k + 2]), deduped: true };
  }
  return results;
}
