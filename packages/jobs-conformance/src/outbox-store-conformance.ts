import { randomUUID } from 'node:crypto';
import type { EnqueueRequest, OutboxRecord, OutboxStore } from '@x/jobs-core/driver';
import { describe, expect, it } from 'vitest';
import type { ConformanceCase } from './conformance-case.js';
import { conformanceError } from './errors.js';

/** What an outbox store factory hands the suite: the store and a way to open its transactions. */
export interface OutboxStoreSubject<Tx> {
  readonly store: OutboxStore<Tx>;
  /**
   * Runs `fn` in a new transaction of the store's database: commits when `fn` resolves, rolls back
   * (and rethrows) when it throws. For Kysely: `(fn) => db.transaction().execute(fn)`.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Releases what the factory opened; called after each case. */
  destroy?(): Promise<void>;
}

/** Options of {@link outboxStoreConformance}. */
export interface OutboxStoreConformanceOptions<Tx> {
  /** Names the suite: `describe('<name> outbox store conformance')`. */
  readonly name: string;
  /** Called once per case; must answer a store that shares no rows with any other. */
  readonly create: () => Promise<OutboxStoreSubject<Tx>>;
  /** Per-case timeout in ms. (Default: 20000) */
  readonly timeoutMs?: number;
}

/** What each outbox case receives. */
export interface OutboxStoreHarness<Tx> extends OutboxStoreSubject<Tx> {
  /** A complete request with fresh ids; `n` lands in the payload so a case can tell rows apart. */
  request(n: number): EnqueueRequest;
  /** Stages `requests` in one committed transaction, with `stageMany` when more than one. */
  commit(...requests: EnqueueRequest[]): Promise<void>;
  /** A fresh claimant token. */
  claimant(): string;
  /** Claims with `leaseMs` (default: an hour) and `limit` (default: 100). */
  claim(claimant: string, options?: { limit?: number; leaseMs?: number }): Promise<readonly OutboxRecord[]>;
  /** Waits until a 1 ms lease has certainly lapsed on the store's clock. */
  lapse(): Promise<void>;
}

/** One behaviour of the outbox store contract: a vitest test under `group`. */
export type OutboxStoreCase = ConformanceCase<OutboxStoreHarness<unknown>>;

const HOUR_MS = 3_600_000;
const LAPSE_WAIT_MS = 25;

const jobIds = (records: readonly OutboxRecord[]) => records.map((record) => record.request.id);
const rowIds = (records: readonly OutboxRecord[]) => records.map((record) => record.id);

/** The outbox store contract, case by case (see `OutboxStore` in @x/jobs-core for the guarantees). */
export const OUTBOX_STORE_CASES: readonly OutboxStoreCase[] = [
  {
    group: 'stage',
    name: 'a committed stage is claimable with its request intact',
    async run(h) {
      const request = h.request(1);
      await h.commit(request);
      const claimant = h.claimant();
      const before = Date.now();
      const [record, ...rest] = await h.claim(claimant);
      expect(rest).toHaveLength(0);
      expect(record?.request).toEqual(request);
      expect(record?.claimedBy).toBe(claimant);
      expect(record?.attempts).toBe(1);
      expect(record?.lastError).toBeNull();
      expect(record?.claimedUntil).toBeGreaterThan(before + HOUR_MS / 2);
      expect(await h.store.backlog()).toBe(1);
    },
  },
  {
    group: 'stage',
    name: 'a rolled-back stage leaves no row',
    async run(h) {
      const failure = new Error('rolled back on purpose');
      await expect(
        h.transaction(async (tx) => {
          await h.store.stage(tx, h.request(1));
          await h.store.stageMany(tx, [h.request(2), h.request(3)]);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await h.store.backlog()).toBe(0);
      expect(await h.claim(h.claimant())).toHaveLength(0);
    },
  },
  {
    group: 'stage',
    name: 'rows are invisible to claim until their transaction commits',
    async run(h) {
      const request = h.request(1);
      await h.transaction(async (tx) => {
        await h.store.stage(tx, request);
        expect(await h.claim(h.claimant())).toHaveLength(0);
        expect(await h.store.backlog()).toBe(0);
      });
      expect(jobIds(await h.claim(h.claimant()))).toEqual([request.id]);
    },
  },
  {
    group: 'stage',
    name: 'stage refuses a value that is not one of its transactions (X_OUTBOX_TX_INVALID)',
    async run(h) {
      const notATransaction = { isTransaction: false } as never;
      await expect(h.store.stage(notATransaction, h.request(1))).rejects.toMatchObject({
        code: 'X_OUTBOX_TX_INVALID',
      });
    },
  },
  {
    group: 'order',
    name: 'claim answers rows in staging order, within and across transactions',
    async run(h) {
      const first = [h.request(1), h.request(2)];
      const second = [h.request(3), h.request(4), h.request(5)];
      await h.transaction(async (tx) => {
        for (const request of first) await h.store.stage(tx, request);
      });
      await h.transaction((tx) => h.store.stageMany(tx, second));
      const records = await h.claim(h.claimant());
      expect(jobIds(records)).toEqual([...first, ...second].map((request) => request.id));
      const stagedAt = records.map((record) => record.stagedAt);
      expect(stagedAt).toEqual([...stagedAt].sort((x, y) => x - y));
    },
  },
  {
    group: 'order',
    name: 'order holds over many rows drained batch by batch (ids past 9, 99: no text ordering)',
    async run(h) {
      const requests = Array.from({ length: 120 }, (_, n) => h.request(n));
      await h.commit(...requests.slice(0, 7));
      await h.commit(...requests.slice(7));
      const drained: OutboxRecord[] = [];
      for (let pass = 0; pass < 20 && drained.length < requests.length; pass += 1) {
        const claimant = h.claimant();
        const batch = await h.claim(claimant, { limit: 13 });
        expect(await h.store.markPublished(claimant, rowIds(batch))).toBe(batch.length);
        drained.push(...batch);
      }
      expect(jobIds(drained)).toEqual(requests.map((request) => request.id));
    },
  },
  {
    group: 'claim',
    name: 'claim takes at most limit rows, oldest first',
    async run(h) {
      const requests = [1, 2, 3, 4, 5].map((n) => h.request(n));
      await h.commit(...requests);
      const records = await h.claim(h.claimant(), { limit: 2 });
      expect(jobIds(records)).toEqual(requests.slice(0, 2).map((request) => request.id));
    },
  },
  {
    group: 'claim',
    name: 'head of line: while one batch is held, no other claimant gets any row',
    async run(h) {
      await h.commit(...[1, 2, 3, 4].map((n) => h.request(n)));
      expect(await h.claim(h.claimant(), { limit: 2 })).toHaveLength(2);
      expect(await h.claim(h.claimant())).toHaveLength(0);
    },
  },
  {
    group: 'claim',
    name: 'racing claimants: exactly one gets the batch, and no row is handed out twice',
    async run(h) {
      await h.commit(...Array.from({ length: 30 }, (_, n) => h.request(n)));
      const results = await Promise.all(
        Array.from({ length: 6 }, () => h.claim(h.claimant(), { limit: 10 })),
      );
      const winners = results.filter((records) => records.length > 0);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toHaveLength(10);
      expect(new Set(results.flatMap(rowIds)).size).toBe(10);
    },
  },
  {
    group: 'markPublished',
    name: "markPublished retires the claimant's rows and lets the next batch through, in order",
    async run(h) {
      const requests = [1, 2, 3, 4, 5].map((n) => h.request(n));
      await h.commit(...requests);
      const a = h.claimant();
      const batch = await h.claim(a, { limit: 2 });
      expect(await h.store.markPublished(a, rowIds(batch))).toBe(2);
      expect(await h.store.backlog()).toBe(3);
      const next = await h.claim(h.claimant());
      expect(jobIds(next)).toEqual(requests.slice(2).map((request) => request.id));
    },
  },
  {
    group: 'markPublished',
    name: 'a published row is never claimed again, even after its lease would have lapsed',
    async run(h) {
      await h.commit(h.request(1));
      const a = h.claimant();
      const records = await h.claim(a, { leaseMs: 1 });
      expect(await h.store.markPublished(a, rowIds(records))).toBe(1);
      await h.lapse();
      expect(await h.claim(h.claimant())).toHaveLength(0);
      expect(await h.store.backlog()).toBe(0);
      expect(await h.store.markPublished(a, rowIds(records))).toBe(0);
    },
  },
  {
    group: 'release',
    name: 'release hands rows back at once with the error, and the next claim takes them first',
    async run(h) {
      const requests = [1, 2, 3].map((n) => h.request(n));
      await h.commit(...requests);
      const a = h.claimant();
      const held = await h.claim(a, { limit: 2 });
      expect(await h.store.release(a, rowIds(held), 'X_DRIVER_UNAVAILABLE: down')).toBe(2);
      const again = await h.claim(h.claimant());
      expect(jobIds(again)).toEqual(requests.map((request) => request.id));
      expect(again.map((record) => [record.attempts, record.lastError])).toEqual([
        [2, 'X_DRIVER_UNAVAILABLE: down'],
        [2, 'X_DRIVER_UNAVAILABLE: down'],
        [1, null],
      ]);
    },
  },
  {
    group: 'lease',
    name: 'a lapsed lease lets another claimant take the same rows, in the same order',
    async run(h) {
      await h.commit(...[1, 2, 3, 4].map((n) => h.request(n)));
      const a = h.claimant();
      const first = await h.claim(a, { limit: 3, leaseMs: 1 });
      await h.lapse();
      const b = h.claimant();
      const second = await h.claim(b, { limit: 3 });
      expect(rowIds(second)).toEqual(rowIds(first));
      expect(second.every((record) => record.claimedBy === b && record.attempts === 2)).toBe(true);
    },
  },
  {
    group: 'fence',
    name: "a lapsed claimant's late release and markPublished change nothing",
    async run(h) {
      const requests = [1, 2, 3].map((n) => h.request(n));
      await h.commit(...requests);
      const a = h.claimant();
      const stale = await h.claim(a, { leaseMs: 1 });
      await h.lapse();
      const b = h.claimant();
      const fresh = await h.claim(b);
      expect(await h.store.release(a, rowIds(stale), 'late')).toBe(0);
      expect(await h.store.markPublished(a, rowIds(stale))).toBe(0);
      // b still holds every row: nothing was unclaimed for a third claimant, nothing was retired.
      expect(await h.claim(h.claimant())).toHaveLength(0);
      expect(await h.store.backlog()).toBe(3);
      expect(await h.store.markPublished(b, rowIds(fresh))).toBe(3);
      expect(await h.store.backlog()).toBe(0);
    },
  },
  {
    group: 'fence',
    name: 'a claimant settles only rows it holds; an unknown token settles nothing',
    async run(h) {
      await h.commit(...[1, 2, 3, 4].map((n) => h.request(n)));
      const a = h.claimant();
      const held = await h.claim(a, { limit: 2 });
      const stranger = h.claimant();
      expect(await h.store.markPublished(stranger, rowIds(held))).toBe(0);
      expect(await h.store.release(stranger, rowIds(held))).toBe(0);
      expect(await h.store.markPublished(a, rowIds(held))).toBe(2);
      const b = h.claimant();
      const rest = await h.claim(b);
      expect(rest).toHaveLength(2);
      expect(await h.store.markPublished(a, rowIds(rest))).toBe(0);
      expect(await h.store.release(a, rowIds(rest))).toBe(0);
      expect(await h.store.release(b, [], 'nothing')).toBe(0);
      expect(await h.store.markPublished(b, rowIds(rest))).toBe(2);
    },
  },
];

/**
 * Runs one case against a store from `options.create()` and destroys it, whatever the outcome.
 * Rejects with the case's assertion error when the store does not behave.
 */
export async function runOutboxStoreCase<Tx>(
  testCase: OutboxStoreCase,
  options: Pick<OutboxStoreConformanceOptions<Tx>, 'create'>,
): Promise<void> {
  const subject = await options.create();
  try {
    await testCase.run(outboxHarness(subject) as unknown as OutboxStoreHarness<unknown>);
  } finally {
    await subject.destroy?.();
  }
}

/**
 * Registers the outbox store contract as vitest suites, one `describe` per group and one `it` per
 * case, each on a fresh store. A third party certifies its own store with:
 *
 * ```ts
 * outboxStoreConformance({ name: 'my-store', create: async () => ({ store, transaction }) });
 * ```
 */
export function outboxStoreConformance<Tx>(options: OutboxStoreConformanceOptions<Tx>): void {
  if (
    typeof options.name !== 'string' ||
    options.name.trim() === '' ||
    typeof options.create !== 'function'
  ) {
    throw conformanceError(
      'X_CONFORMANCE_OPTIONS_INVALID',
      'outboxStoreConformance: name must be a non-empty string and create a function.',
    );
  }
  describe(`${options.name} outbox store conformance`, () => {
    for (const group of new Set(OUTBOX_STORE_CASES.map((testCase) => testCase.group))) {
      describe(group, () => {
        for (const testCase of OUTBOX_STORE_CASES.filter((candidate) => candidate.group === group)) {
          it(testCase.name, () => runOutboxStoreCase(testCase, options), options.timeoutMs ?? 20_000);
        }
      });
    }
  });
}

/** Wraps a subject in the conveniences the cases use. */
function outboxHarness<Tx>(subject: OutboxStoreSubject<Tx>): OutboxStoreHarness<Tx> {
  const { store } = subject;
  return {
    ...subject,
    request: (n) => {
      const id = randomUUID();
      return {
        id,
        runId: randomUUID(),
        name: 'conformance-outbox-job',
        queue: 'conformance',
        payload: { n, nested: { list: [1, 'two', null], flag: true } },
        tenantId: n % 2 === 0 ? null : `org-${n}`,
        idempotencyKey: `key-${id}`,
        priority: n % 3,
        runAt: 1_900_000_000_000 + n,
        maxAttempts: 3,
        onConflict: 'dedupe',
        enqueuedBy: null,
        traceparent: null,
      };
    },
    commit: (...requests) =>
      subject.transaction(async (tx) => {
        if (requests.length === 1) await store.stage(tx, requests[0] as EnqueueRequest);
        else await store.stageMany(tx, requests);
      }),
    claimant: () => `conformance:${randomUUID()}`,
    claim: (claimant, options = {}) =>
      store.claim({ claimant, limit: options.limit ?? 100, leaseMs: options.leaseMs ?? HOUR_MS }),
    lapse: () => new Promise((resolve) => setTimeout(resolve, LAPSE_WAIT_MS)),
  };
}
