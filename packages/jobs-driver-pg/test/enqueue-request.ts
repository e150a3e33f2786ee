import { randomUUID } from 'node:crypto';
import type { EnqueueRequest } from '@x/jobs-core/driver';

/** A complete enqueue request with fresh ids and key; override any field. */
export function enqueueRequest(overrides: Partial<EnqueueRequest> = {}): EnqueueRequest {
  return {
    id: randomUUID(),
    runId: randomUUID(),
    name: 'test-job',
    queue: 'default',
    payload: { n: 1 },
    tenantId: null,
    idempotencyKey: randomUUID(),
    priority: 0,
    maxAttempts: 3,
    ...overrides,
  };
}
