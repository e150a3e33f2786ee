import { job, VALUE_LIMITS } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { occurrenceRequests } from './occurrence-requests.js';

const keyed = (key: string) =>
  job({
    name: `keyed-${key.length}`,
    input: z.object({}),
    idempotencyKey: () => key,
    tenant: 'none',
    run: () => null,
  });

describe('occurrenceRequests', () => {
  it('scopes each key to its occurrence, deduped', () => {
    const [request] = occurrenceRequests('nightly', { entries: () => [[keyed('k'), {}]] }, [
      Date.UTC(2026, 0, 1),
    ]);
    expect(request?.idempotencyKey).toBe('k@nightly@2026-01-01T00:00:00.000Z');
    expect(request?.onConflict).toBe('dedupe');
  });

  it("refuses a key core admitted that the occurrence suffix pushes past core's limit", () => {
    const key = 'k'.repeat(VALUE_LIMITS.idempotencyKeyBytes - 10);
    let caught: unknown;
    try {
      occurrenceRequests('nightly', { entries: () => [[keyed(key), {}]] }, [Date.UTC(2026, 0, 1)]);
    } catch (error) {
      caught = error;
    }
    expect((caught as { code?: string }).code).toBe('X_JOB_INPUT_INVALID');
  });
});
