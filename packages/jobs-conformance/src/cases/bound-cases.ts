import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'bounds';

/** A window long enough that no case lets it pass, short enough that doubling it is obvious. */
const WINDOW_MS = 60_000;
/** What a stamped time may exceed `now + window` by: the driver's clock read and a round trip. */
const SLACK_MS = 1_000;

/** Asserts `stamped` lies in `[before + window, after + window + SLACK_MS]`: neither early nor late. */
function expectStamp(stamped: number | null, before: number, after: number, window: number, label: string) {
  expect(stamped, label).not.toBeNull();
  expect(stamped!, `${label}: not earlier than now + ${window} ms`).toBeGreaterThanOrEqual(
    before + window - 25,
  );
  expect(stamped!, `${label}: not later than now + ${window} ms`).toBeLessThanOrEqual(
    after + window + SLACK_MS,
  );
}

/** Runs `fn` between two readings of the driver's clock. */
async function between<T>(h: DriverHarness, fn: () => Promise<T>) {
  const before = h.driver.now();
  const value = await fn();
  return { value, before, after: h.driver.now() };
}

/**
 * Upper bounds: every time a driver stamps is no later than it should be, not only no earlier
 * (a lease of twice the window, a retry pushed past its `runAt`, keeps rows invisible too long).
 */
export const boundCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a claim stamps its lease at now + visibilityTimeoutMs, no later',
    async run(h) {
      const written = await h.enqueue(h.queue);
      const { value, before, after } = await between(h, () =>
        h.claimOne(h.queue, { visibilityTimeoutMs: WINDOW_MS }),
      );
      expect(value.id).toBe(written.id);
      expectStamp(value.leaseExpiresAt, before, after, WINDOW_MS, 'claimed leaseExpiresAt');
      expectStamp((await h.row(value.id)).leaseExpiresAt, before, after, WINDOW_MS, 'stored leaseExpiresAt');
    },
  },
  {
    group,
    name: 'a heartbeat moves the lease to now + visibilityTimeoutMs, no later',
    async run(h) {
      const job = await h.running(h.queue, { visibilityTimeoutMs: WINDOW_MS });
      await h.advance(h.tickMs);
      const { value, before, after } = await between(h, () =>
        h.driver.heartbeat(job.id, job.claim, 2 * WINDOW_MS),
      );
      expect(value).toBe(true);
      expectStamp(
        (await h.row(job.id)).leaseExpiresAt,
        before,
        after,
        2 * WINDOW_MS,
        'leaseExpiresAt after heartbeat',
      );
    },
  },
  {
    group,
    name: 'a retry and a release keep the runAt they were given, no later',
    async run(h) {
      const job = await h.running();
      const runAt = h.driver.now() + WINDOW_MS;
      await h.driver.nack(job.id, job.claim, { kind: 'retry', runAt, error: { code: 'E', message: 'm' } });
      const retried = await h.row(job.id);
      expect(retried.runAt, 'retry runAt').toBeGreaterThanOrEqual(runAt - 1);
      expect(retried.runAt, 'retry runAt').toBeLessThanOrEqual(runAt + 1);

      const other = await h.running(h.unique('q'));
      const releaseAt = h.driver.now() + WINDOW_MS;
      await h.driver.nack(other.id, other.claim, { kind: 'release', runAt: releaseAt });
      const released = await h.row(other.id);
      expect(released.runAt, 'release runAt').toBeGreaterThanOrEqual(releaseAt - 1);
      expect(released.runAt, 'release runAt').toBeLessThanOrEqual(releaseAt + 1);
    },
  },
  {
    group,
    name: 'a delayed enqueue and a suspend keep their runAt, no later',
    async run(h) {
      const runAt = h.driver.now() + WINDOW_MS;
      const delayed = await h.enqueue(h.queue, { runAt });
      const stored = (await h.row(delayed.id)).runAt;
      expect(stored).toBeGreaterThanOrEqual(runAt - 1);
      expect(stored).toBeLessThanOrEqual(runAt + 1);

      const job = await h.running(h.unique('q'));
      const wakeAt = h.driver.now() + WINDOW_MS;
      await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt: wakeAt });
      const suspended = (await h.row(job.id)).runAt;
      expect(suspended).toBeGreaterThanOrEqual(wakeAt - 1);
      expect(suspended).toBeLessThanOrEqual(wakeAt + 1);
    },
  },
  {
    group,
    name: 'a lease grant and its renewal expire at now + ttlMs, no later',
    async run(h) {
      const key = h.unique('bounded');
      const acquired = await between(h, () =>
        h.leases.acquire(key, 'holder', { limit: 1, ttlMs: WINDOW_MS }),
      );
      expectStamp(
        acquired.value?.expiresAt ?? null,
        acquired.before,
        acquired.after,
        WINDOW_MS,
        'acquired expiresAt',
      );
      const renewed = await between(h, () => h.leases.renew(acquired.value!, 2 * WINDOW_MS));
      expectStamp(
        renewed.value?.expiresAt ?? null,
        renewed.before,
        renewed.after,
        2 * WINDOW_MS,
        'renewed expiresAt',
      );
      const [held] = await h.leases.holders(key);
      expectStamp(held?.expiresAt ?? null, renewed.before, renewed.after, 2 * WINDOW_MS, 'held expiresAt');
    },
  },
];
