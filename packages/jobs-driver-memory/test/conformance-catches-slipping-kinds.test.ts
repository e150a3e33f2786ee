import type { JobDriver, JobIntrospection, JobRecord } from '@x/jobs-core';
import type { SettledJobs } from '@x/jobs-core/driver';
import { describe, it } from 'vitest';
import { type Breakage, type BrokenDriver, expectCaught } from './broken-driver.js';

/**
 * The kinds of broken driver that seeded bugs found slipping through the suite (issue 32), each
 * broken once: the named cases must catch every one.
 */

const introspectOf = (driver: JobDriver): JobIntrospection => driver.introspect!;

/**
 * An operator's retry of a dead job keeps the attempts that started: the row, its claims and its
 * start go on counting from where the dead row stopped (a start at maxAttempts is refused).
 */
const retryKeepsStartedAttempts: Breakage = (inner) => {
  const carried = new Map<string, number>();
  const introspect = introspectOf(inner);
  return {
    ...inner,
    async claim(options) {
      const jobs = await inner.claim(options);
      return jobs.map((job) => ({ ...job, attempt: job.attempt + (carried.get(job.id) ?? 0) }));
    },
    async start(id, claim, visibilityTimeoutMs) {
      const row = await introspect.get(id);
      if (row !== null && row.attempts + (carried.get(id) ?? 0) >= row.maxAttempts) return false;
      return inner.start(id, claim, visibilityTimeoutMs);
    },
    introspect: {
      ...introspect,
      async retry(id, options) {
        const before = await introspect.get(id);
        const retried = await introspect.retry(id, options);
        if (retried && before !== null) carried.set(id, (carried.get(id) ?? 0) + before.attempts);
        return retried;
      },
      async get(id) {
        const row = await introspect.get(id);
        return row === null ? null : { ...row, attempts: row.attempts + (carried.get(id) ?? 0) };
      },
    },
  };
};

/** The settle wake is sent before the settle is written: a listener reading on it sees the row running. */
const settleWakeBeforeWrite: Breakage = (inner) => {
  const listeners = new Set<(jobs: SettledJobs) => void>();
  const announce = (id: string) => {
    for (const listener of listeners) listener([id]);
  };
  const introspect = introspectOf(inner);
  return {
    ...inner,
    wake: {
      ...inner.wake!,
      subscribeSettled(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    ack(id, claim, result) {
      announce(id);
      return inner.ack(id, claim, result);
    },
    nack(id, claim, options) {
      if (options.kind === 'dead') announce(id);
      return inner.nack(id, claim, options);
    },
    introspect: {
      ...introspect,
      cancel(id, reason) {
        announce(id);
        return introspect.cancel(id, reason);
      },
    },
  };
};

/** A purge that ages done rows by `instant` (when they were enqueued, or started) instead of when they finished. */
const purgeAgesBy =
  (instant: (job: JobRecord) => number): Breakage =>
  (inner) => {
    const introspect = introspectOf(inner);
    return {
      ...inner,
      introspect: {
        ...introspect,
        async purge({ doneBefore }) {
          let removed = 0;
          let cursor: string | null = null;
          do {
            const page = await introspect.list({
              state: 'done',
              limit: 100,
              ...(cursor === null ? {} : { cursor }),
            });
            for (const job of page.jobs) {
              if (instant(job) < doneBefore && (await introspect.remove(job.id))) removed += 1;
            }
            cursor = page.nextCursor;
          } while (cursor !== null);
          return removed;
        },
      },
    };
  };

/** A re-report keeps the expiry of a worker's first report: its TTL runs from when it was first seen. */
const workerTtlFromFirstReport: Breakage = (inner) => {
  const firstExpiry = new Map<string, number>();
  const introspect = introspectOf(inner);
  return {
    ...inner,
    introspect: {
      ...introspect,
      reportWorker(info, ttlMs) {
        const expiry = firstExpiry.get(info.id) ?? inner.now() + ttlMs;
        firstExpiry.set(info.id, expiry);
        return introspect.reportWorker(info, Math.max(1, expiry - inner.now()));
      },
    },
  };
};

const SLIPPING: readonly BrokenDriver[] = [
  {
    name: "measures a worker's TTL from its first report",
    breakage: workerTtlFromFirstReport,
    caughtBy: ["introspect: a worker's TTL runs from its latest report"],
  },
  {
    name: 'keeps the started attempts of a dead job its operator retried',
    breakage: retryKeepsStartedAttempts,
    caughtBy: ["attempts: an operator's retry of a dead job whose attempts started"],
  },
  {
    name: 'sends the settle wake before the settle is written',
    breakage: settleWakeBeforeWrite,
    caughtBy: ['wake: a settle listener that reads the row when woken sees it settled'],
  },
  {
    name: 'purges done rows by when they were enqueued',
    breakage: purgeAgesBy((job) => job.enqueuedAt),
    caughtBy: ['introspect: purge ages a done row from when it finished'],
  },
  {
    name: 'purges done rows by when they started',
    breakage: purgeAgesBy((job) => job.startedAt ?? job.enqueuedAt),
    caughtBy: ['introspect: purge ages a done row from when it finished'],
  },
];

describe('the conformance suite catches the kinds of broken driver that slipped through it', () => {
  for (const { name, breakage, caughtBy } of SLIPPING) {
    for (const prefix of caughtBy) {
      it(`a driver that ${name} fails "${prefix}…"`, () => expectCaught(breakage, prefix));
    }
  }
});
