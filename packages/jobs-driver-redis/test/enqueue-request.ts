import { randomUUID } from 'node:crypto';
import type { EnqueueRequest } from '@x/jobs-core/driver';

/** A complete enqueue request on `queue` with a fresh id, runId and idempotency key; override any field. */
export function enqueueRequest(queue: string, overrides: Partial<EnqueueRequest> = {}): EnqueueRequest {
  return {
    id: randomUUID(),
    runId: randomUUID(),
    name: 'job',
    queue,
    payload: { n: 1 },
    tenantId: null,
    idempotencyKey: randomUUID(),
    priority: 0,
    maxAttempts: 3,
    ...overrides,
  };
}
