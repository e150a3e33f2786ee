import { jobDriverModelCheck, runJobDriverModelCheck } from '@x/jobs-conformance';
import type { JobDriver } from '@x/jobs-core';
import type { ClaimRef } from '@x/jobs-core/driver';
import { describe, expect, it } from 'vitest';
import { memoryJobDriver, type VirtualClock, virtualClock } from '../src/index.js';

const memorySubject = (): { driver: JobDriver; clock: VirtualClock } => {
  const clock = virtualClock();
  return { driver: memoryJobDriver({ clock }), clock };
};

// The memory driver against itself: the check's own baseline (any disagreement here is a bug in
// the check, not in a driver), with more and longer sequences than a real backend can afford.
jobDriverModelCheck({
  name: 'memory',
  create: memorySubject,
  model: memorySubject,
  numRuns: 300,
  maxOperations: 40,
});

/** A memory driver with one guarantee broken by `breakage`. */
const broken = (breakage: (inner: JobDriver) => JobDriver) => () => {
  const { driver, clock } = memorySubject();
  return { driver: breakage(driver), clock };
};

/** Fails the check (by the shrunk counterexample), or answers why it did not. */
async function failure(create: () => { driver: JobDriver; clock: VirtualClock }): Promise<unknown> {
  return runJobDriverModelCheck({
    name: 'broken',
    create,
    model: memorySubject,
    numRuns: 300,
    maxOperations: 40,
  }).then(
    () => 'the check passed',
    (error: unknown) => error,
  );
}

describe('the model check catches broken drivers', () => {
  it('a driver that stores every row at priority 0', async () => {
    const error = await failure(
      broken((inner) => ({ ...inner, enqueue: (r) => inner.enqueue({ ...r, priority: 0 }) })),
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain('Counterexample');
  });

  it('a driver whose ack is fenced on the job only', async () => {
    const latest = new Map<string, ClaimRef>();
    const error = await failure(
      broken((inner) => ({
        ...inner,
        async claim(options) {
          const jobs = await inner.claim(options);
          for (const job of jobs) latest.set(job.id, job.claim);
          return jobs;
        },
        ack: (id, claim, result) => inner.ack(id, latest.get(id) ?? claim, result),
      })),
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain('Counterexample');
  });

  it('a driver whose cancel of a queued row does nothing', async () => {
    const error = await failure(
      broken((inner) => ({
        ...inner,
        introspect: { ...inner.introspect!, cancel: async () => true },
      })),
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain('Counterexample');
  });
});
