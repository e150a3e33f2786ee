import { randomUUID } from 'node:crypto';
import { type AnyJobHandle, errorCode, type JobDriver, job, setJobDriver } from '@x/jobs-core';
import type { EnqueueRequest } from '@x/jobs-core/driver';
import { z } from 'zod';
import type { GeneratedInput } from './inputs.js';

/** JSON with object keys sorted: equal for equal values whatever order a driver keeps keys in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** A fresh job (own name and queue) for one batch: dedupe scopes never cross batches. */
export function batchJob(): AnyJobHandle {
  const tag = randomUUID();
  return job({
    name: `parity-${tag}`,
    queue: `parity-${tag}`,
    input: z.object({ key: z.string(), tenant: z.string(), data: z.unknown() }),
    idempotencyKey: ({ key }) => key,
    tenant: ({ tenant }) => tenant,
    run: async () => {},
  });
}

/** What one driver answered for one batch, with ids replaced by the index of the input that wrote them. */
export interface Observation {
  readonly answers: readonly string[];
  readonly rows: readonly string[];
  readonly claimed: readonly string[];
}

/**
 * Enqueues the batch through `enqueue` (one input at a time), then reads every admitted row back
 * with `introspect.get` and claims what is ready: the observation two drivers must share.
 */
export async function observe(
  driver: JobDriver,
  handle: AnyJobHandle,
  batch: readonly GeneratedInput[],
  enqueue: (input: GeneratedInput) => Promise<{ id: string; deduped: boolean }>,
): Promise<Observation> {
  setJobDriver(driver);
  const firstIndex = new Map<string, number>();
  const answers: string[] = [];
  for (const [index, input] of batch.entries()) {
    try {
      const result = await enqueue(input);
      if (!firstIndex.has(result.id)) firstIndex.set(result.id, index);
      answers.push(`admitted deduped=${result.deduped} row=${firstIndex.get(result.id)}`);
    } catch (error) {
      answers.push(`refused ${errorCode(error) ?? String(error)}`);
    }
  }
  const rows: string[] = [];
  for (const [id, index] of firstIndex) {
    const row = await driver.introspect?.get(id);
    rows.push(
      `${index}: ${canonical({ name: row?.name === handle.name, tenant: row?.tenantId, key: row?.idempotencyKey, payload: row?.payload })}`,
    );
  }
  const claimed = await driver.claim({
    queues: [handle.queue],
    limit: 100,
    workerId: 'parity',
    visibilityTimeoutMs: 60_000,
  });
  return {
    answers,
    rows,
    claimed: claimed
      .map((c) => `${firstIndex.get(c.id)}: ${canonical([c.idempotencyKey, c.payload])}`)
      .sort(),
  };
}

/** Through core: `handle.enqueue`, every value rule applied before the driver sees the request. */
export const throughCore =
  (handle: AnyJobHandle) =>
  (input: GeneratedInput): Promise<{ id: string; deduped: boolean }> =>
    handle.enqueue({ key: input.key, tenant: input.tenant, data: input.data }, input.options as never);

/**
 * Around core: the request a driver would have got before the value rules (the JSON form of the
 * payload, nothing checked), handed straight to `driver.enqueue`. Used to show the property
 * catches what the rules prevent.
 */
export const aroundCore =
  (driver: JobDriver, handle: AnyJobHandle) =>
  (input: GeneratedInput): Promise<{ id: string; deduped: boolean }> => {
    const request: EnqueueRequest = {
      id: randomUUID(),
      runId: randomUUID(),
      name: handle.name,
      queue: handle.queue,
      payload: JSON.parse(JSON.stringify(input.data ?? null)),
      tenantId: input.tenant,
      idempotencyKey: input.key,
      priority: 0,
      maxAttempts: 3,
    };
    return driver.enqueue(request);
  };
