import { randomUUID } from 'node:crypto';
import type { JobDriver } from '@x/jobs-core';
import type { EnqueueRequest, EnqueueResult } from '@x/jobs-core/driver';

/** A promise with its resolve and reject exposed. */
function gate<T = void>() {
  let open!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Polls `check` every few ms until it holds, failing after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Wraps a real driver so a test sees every request the relay published (in order) and can
 * intercept `enqueueMany` (fail it, hold it open). Every other member is the real driver's.
 */
export function observedDriver(driver: JobDriver) {
  const published: EnqueueRequest[] = [];
  let intercept:
    | ((
        requests: readonly EnqueueRequest[],
        next: () => Promise<readonly EnqueueResult[]>,
      ) => Promise<readonly EnqueueResult[]>)
    | undefined;
  const observed: JobDriver = {
    ...driver,
    async enqueueMany(requests) {
      const next = async () => {
        const results = await driver.enqueueMany(requests);
        published.push(...requests);
        return results;
      };
      return intercept === undefined ? next() : intercept(requests, next);
    },
  };
  return {
    driver: observed,
    published,
    /** Replaces `enqueueMany` until reset with `undefined`; `next()` runs the real one. */
    intercept(handler: typeof intercept) {
      intercept = handler;
    },
    /**
     * Holds the next publishes open: `reached` resolves once a relay is inside `enqueueMany`;
     * `open()` lets it go on to publish, or to fail when `outcome` is `'fail'`.
     */
    hold(outcome: 'publish' | 'fail' = 'publish') {
      const entered = gate();
      const released = gate();
      intercept = async (_requests, next) => {
        entered.open();
        await released.promise;
        if (outcome === 'fail') throw new Error('the publish failed (held by the test)');
        return next();
      };
      return { reached: entered.promise, open: () => released.open() };
    },
  };
}

/** A complete request with fresh ids, for tests that stage without a job handle. */
export function testRequest(name: string, n: number): EnqueueRequest {
  const id = randomUUID();
  return {
    id,
    runId: randomUUID(),
    name,
    queue: 'default',
    payload: { n },
    tenantId: null,
    idempotencyKey: `${name}:${n}`,
    priority: 0,
    maxAttempts: 3,
  };
}
