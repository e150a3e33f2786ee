import type { JobDriver } from '@x/jobs-core';
import { JobsError } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { createDriverHarness, expectErrorCode } from './driver-harness.js';

const bareDriver = { now: () => 0 } as unknown as JobDriver;

describe('createDriverHarness', () => {
  it('passes time on the subject clock when it has one', async () => {
    const moves: number[] = [];
    const h = createDriverHarness({ driver: bareDriver, clock: { advance: (ms) => moves.push(ms) } }, 200);
    const started = Date.now();
    await h.advance(60_000);
    expect(moves).toEqual([60_000]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('waits in real time without a clock', async () => {
    const h = createDriverHarness(bareDriver, 200);
    const started = Date.now();
    await h.advance(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(29);
  });

  it('builds complete requests with fresh ids and keys, and unique queue names', () => {
    const h = createDriverHarness(bareDriver, 200);
    const [a, b] = [h.request('q'), h.request('q', { priority: 4 })];
    expect(a.id).not.toBe(b.id);
    expect(a.runId).not.toBe(b.runId);
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(b).toMatchObject({ queue: 'q', priority: 4, maxAttempts: 3, tenantId: null });
    expect(createDriverHarness(bareDriver, 200).queue).not.toBe(h.queue);
  });

  it('fails with an assertion when the driver lacks a member the suite requires', () => {
    const h = createDriverHarness(bareDriver, 200);
    for (const member of ['introspect', 'leases', 'schedules', 'backfills'] as const) {
      expect(() => h[member], member).toThrow(expect.objectContaining({ name: 'AssertionError' }));
    }
  });
});

describe('expectErrorCode', () => {
  it('passes on the expected code, synchronous or not', async () => {
    await expectErrorCode(async () => {
      throw new JobsError('X_A', 'a');
    }, 'X_A');
    await expectErrorCode(() => {
      throw new JobsError('X_A', 'a');
    }, 'X_A');
  });

  it('fails on another code and on no error at all', async () => {
    await expect(
      expectErrorCode(async () => {
        throw new JobsError('X_B', 'b');
      }, 'X_A'),
    ).rejects.toThrow(expect.objectContaining({ name: 'AssertionError' }));
    await expect(expectErrorCode(async () => 'fine', 'X_A')).rejects.toThrow(
      expect.objectContaining({ name: 'AssertionError' }),
    );
  });
});
