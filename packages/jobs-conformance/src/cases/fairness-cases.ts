import type { ClaimedJob, EnqueueRequest } from '@x/jobs-core/driver';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import { expectErrorCode, LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'fairness';

/** The harness queue with `fairness: 'tenant'`. */
const fairQueue = (queue: string) => ({ queues: { [queue]: { fairness: 'tenant' as const } } });

/** The harness queue with fairness by tenant, `a` weighing 3 (every other tenant 1). */
const weightedQueue = (queue: string) => ({
  queues: { [queue]: { fairness: { by: 'tenant' as const, weights: { a: 3 } } } },
});

/**
 * One claimer of one row at a time, as a worker with `concurrency: 1, prefetch: 0` claims:
 * claim(1) → start → ack, `times` over (or until a claim answers nothing). Answers the tenants
 * served, in order.
 */
async function serveOneByOne(h: DriverHarness, times: number, workerId = 'fair-worker'): Promise<string> {
  let order = '';
  for (let i = 0; i < times; i += 1) {
    const [job] = await h.driver.claim({
      queues: [h.queue],
      limit: 1,
      workerId,
      visibilityTimeoutMs: LONG_MS,
    });
    if (job === undefined) break;
    expect(await h.driver.start(job.id, job.claim, LONG_MS)).toBe(true);
    expect(await h.driver.ack(job.id, job.claim, null)).toBe(true);
    order += job.tenantId ?? '-';
  }
  return order;
}

/**
 * Enqueues `count` rows of `tenantId` one after another (so enqueue order is call order), all
 * with one `runAt` in the past: within a turn, rows then tie on priority and runAt.
 */
async function rowsOf(
  h: DriverHarness,
  tenantId: string | null,
  count: number,
  overrides: Partial<EnqueueRequest> = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    ids.push((await h.enqueue(h.queue, { tenantId, runAt: h.driver.now() - 60_000, ...overrides })).id);
  }
  return ids;
}

/** The claimed rows' tenants as a string, one letter each (`-` for no tenant). */
const tenantsOf = (jobs: readonly ClaimedJob[]) => jobs.map((job) => job.tenantId ?? '-').join('');

const claimFair = (
  h: DriverHarness,
  limit: number,
  options: { start?: number; visibilityTimeoutMs?: number } = {},
) =>
  h.driver.claim({
    queues: [h.queue],
    limit,
    workerId: 'fair-worker',
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? LONG_MS,
    ...(options.start === undefined ? {} : { start: options.start }),
  });

/**
 * `QueueOptions.fairness`: claims share the queue by the service each tenant was given, counted
 * in the backend (start tags over per-tenant counters and the queue's clock), so it holds for a
 * claimer of one row at a time and for many claimers; weights share it in proportion; between
 * equal start tags, the default order (priority, runAt, enqueue order). A driver made without the
 * setting fails this group.
 */
export const fairnessCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a fair claim gives each tenant one row per turn, the older row first within a turn',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 6);
      await rowsOf(h, 'b', 2);
      expect(tenantsOf(await claimFair(h, 6))).toBe('ababaa');
    },
  },
  {
    group,
    name: 'service is counted, not rows held: a tenant served before banks no credit for a newcomer',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 6);
      expect(tenantsOf(await claimFair(h, 3))).toBe('aaa');
      await rowsOf(h, 'b', 4);
      expect(tenantsOf(await claimFair(h, 5))).toBe('babab');
    },
  },
  {
    group,
    name: "40 rows of A then 3 of B, served one at a time (claim 1 → start → ack): B's first row is in the next claim, then A and B alternate",
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 40);
      expect(await serveOneByOne(h, 5)).toBe('aaaaa');
      await rowsOf(h, 'b', 3);
      expect(await serveOneByOne(h, 8)).toBe('bababaaa');
    },
  },
  {
    group,
    name: 'a claimer of one row at a time: every row acked before the newcomer arrives still counts',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 40);
      await rowsOf(h, 'b', 3);
      expect(await serveOneByOne(h, 8)).toBe('abababaa');
    },
  },
  {
    group,
    name: 'weights share the queue in proportion: a tenant weighing 3 gets three rows per row of a tenant weighing 1',
    setup: weightedQueue,
    async run(h) {
      await rowsOf(h, 'a', 30);
      await rowsOf(h, 'b', 30);
      const served = await serveOneByOne(h, 16);
      expect(served).toBe('abaaabaaabaaabaa');
      const batch = tenantsOf(await claimFair(h, 8));
      expect(batch).toBe('abaaabaa');
    },
  },
  {
    group,
    name: 'a fleet of four claimers taking turns serves the same interleaving as one claimer: the count is shared',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 40);
      const fleet = ['w1', 'w2', 'w3', 'w4'];
      let order = '';
      for (let i = 0; i < 5; i += 1) order += await serveOneByOne(h, 1, fleet[i % 4]);
      await rowsOf(h, 'b', 3);
      for (let i = 0; i < 8; i += 1) order += await serveOneByOne(h, 1, fleet[(i + 1) % 4]);
      expect(order).toBe('aaaaabababaaa');
    },
  },
  {
    group,
    name: 'a fleet of four claimers racing takes two rows of each tenant per round of four claims while both have rows',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 40);
      await rowsOf(h, 'b', 4);
      const rounds: string[] = [];
      for (let round = 0; round < 3; round += 1) {
        const claims = await Promise.all(
          ['w1', 'w2', 'w3', 'w4'].map((workerId) =>
            h.driver.claim({ queues: [h.queue], limit: 1, workerId, visibilityTimeoutMs: LONG_MS }),
          ),
        );
        const jobs = claims.flat();
        expect(jobs).toHaveLength(4);
        for (const job of jobs) expect(await h.driver.ack(job.id, job.claim, null)).toBe(true);
        rounds.push([...tenantsOf(jobs)].sort().join(''));
      }
      expect(rounds).toEqual(['aabb', 'aabb', 'aaaa']);
    },
  },
  {
    group,
    name: "claims of one row alternate between tenants: a backlog never starves a newcomer's rows",
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 5);
      await rowsOf(h, 'b', 2);
      const order: string[] = [];
      for (let i = 0; i < 5; i += 1) order.push(tenantsOf(await claimFair(h, 1)));
      expect(order.join('')).toBe('ababa');
    },
  },
  {
    group,
    name: 'rows with no tenant take turns as one tenant of their own',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, null, 3);
      await rowsOf(h, 'a', 3);
      expect(tenantsOf(await claimFair(h, 4))).toBe('-a-a');
    },
  },
  {
    group,
    name: "priority orders a tenant's own rows and a turn's ties; across tenants the turn comes first",
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 2);
      const [urgent] = await rowsOf(h, 'a', 1, { priority: 5 });
      const [b] = await rowsOf(h, 'b', 1, { priority: 1 });
      const claimed = await claimFair(h, 4);
      expect(claimed.slice(0, 2).map((job) => job.id)).toEqual([urgent, b]);
      expect(tenantsOf(claimed)).toBe('abaa');
    },
  },
  {
    group,
    name: 'the first `start` rows in the fair order are the ones started',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 3);
      await rowsOf(h, 'b', 1);
      const claimed = await claimFair(h, 4, { start: 2 });
      expect(tenantsOf(claimed)).toBe('abaa');
      expect(claimed.map((job) => job.started === true)).toEqual([true, true, false, false]);
    },
  },
  {
    group,
    name: 'a delayed row that comes due takes its tenant’s turn',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 4);
      const later = await h.enqueue(h.queue, { tenantId: 'b', runAt: h.driver.now() + h.tickMs });
      expect(tenantsOf(await claimFair(h, 2))).toBe('aa');
      await h.advance(h.tickMs * 2);
      const claimed = await claimFair(h, 2);
      expect(claimed.map((job) => job.id)[0]).toBe(later.id);
      expect(tenantsOf(claimed)).toBe('ba');
    },
  },
  {
    group,
    name: 'a row handed back joins its tenant’s turns again',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 4);
      await rowsOf(h, 'b', 1);
      const first = await claimFair(h, 3);
      expect(tenantsOf(first)).toBe('aba');
      const b = first.find((job) => job.tenantId === 'b')!;
      expect(await h.driver.nack(b.id, b.claim, { kind: 'release' })).toBe(true);
      const next = await claimFair(h, 1);
      expect(next.map((job) => job.id)).toEqual([b.id]);
    },
  },
  {
    group,
    name: 'a row whose lease lapsed is due again in its tenant’s turns, its first claim counted as service',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 3);
      const [lapsing] = await claimFair(h, 1, { visibilityTimeoutMs: h.tickMs });
      await rowsOf(h, 'b', 1);
      await h.advance(h.tickMs * 2);
      const claimed = await claimFair(h, 3);
      expect(claimed.map((job) => job.id)[1]).toBe(lapsing!.id);
      expect(tenantsOf(claimed)).toBe('baa');
    },
  },
  {
    group,
    name: 'cancelled rows are never claimed and a paused fair queue hands out nothing',
    setup: fairQueue,
    async run(h) {
      await rowsOf(h, 'a', 2);
      const [b] = await rowsOf(h, 'b', 1);
      expect(await h.introspect.cancel(b!)).toBe(true);
      await h.introspect.pause(h.queue);
      expect(await claimFair(h, 5)).toEqual([]);
      await h.introspect.resume(h.queue);
      expect(tenantsOf(await claimFair(h, 5))).toBe('aa');
    },
  },
  {
    group,
    name: 'racing fair claims hand every row to exactly one claimer',
    setup: fairQueue,
    async run(h) {
      for (const tenant of ['a', 'b', 'c', 'd']) await rowsOf(h, tenant, 10);
      const seen = new Set<string>();
      for (let round = 0; round < 40 && seen.size < 40; round += 1) {
        const batches = await Promise.all(Array.from({ length: 6 }, () => claimFair(h, 4)));
        for (const job of batches.flat()) {
          expect(seen.has(job.id), `row ${job.id} claimed twice`).toBe(false);
          seen.add(job.id);
        }
      }
      expect(seen.size).toBe(40);
    },
  },
  {
    group,
    name: 'a queue without the setting keeps the default order in the same driver',
    setup: fairQueue,
    async run(h) {
      const other = h.unique('plain');
      for (const tenant of ['a', 'a', 'a', 'b']) {
        await h.enqueue(other, { tenantId: tenant, runAt: h.driver.now() - 60_000 });
      }
      expect(tenantsOf(await h.claim(other, { limit: 4 }))).toBe('aaab');
    },
  },
  {
    group,
    name: 'a claim naming a fair queue with another queue is X_CLAIM_FAIRNESS_MIXED',
    setup: fairQueue,
    async run(h) {
      await expectErrorCode(
        () =>
          h.driver.claim({
            queues: [h.queue, h.unique('other')],
            limit: 1,
            workerId: 'w',
            visibilityTimeoutMs: LONG_MS,
          }),
        'X_CLAIM_FAIRNESS_MIXED',
      );
    },
  },
];
