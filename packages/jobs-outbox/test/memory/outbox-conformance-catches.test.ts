import { OUTBOX_STORE_CASES, runOutboxStoreCase } from '@x/jobs-conformance';
import { describe, expect, it } from 'vitest';
import {
  type MemoryOutboxStore,
  type MemoryOutboxTx,
  memoryOutboxStore,
} from '../../src/memory/memory-outbox-store.js';

/** A memory store with one rule of the contract broken on purpose. */
type Defect = (store: MemoryOutboxStore) => MemoryOutboxStore;

/** Remembers each row's latest claimant, so a defect can settle rows as if it held them. */
function withLatestClaimant(store: MemoryOutboxStore) {
  const latest = new Map<string, string>();
  const claim: MemoryOutboxStore['claim'] = async (options) => {
    const records = await store.claim(options);
    for (const record of records) latest.set(record.id, record.claimedBy);
    return records;
  };
  const asHolder = (ids: readonly string[], settle: (claimant: string, id: string) => Promise<number>) =>
    Promise.all(ids.map((id) => settle(latest.get(id) ?? '', id))).then((counts) =>
      counts.reduce((sum, n) => sum + n, 0),
    );
  return { claim, asHolder };
}

const DEFECTS: Record<string, { defect: Defect; caughtBy: string }> = {
  'markPublished ignores the claimant': {
    caughtBy: "a lapsed claimant's late release and markPublished change nothing",
    defect: (store) => {
      const { claim, asHolder } = withLatestClaimant(store);
      return {
        ...store,
        claim,
        markPublished: (_claimant, ids) => asHolder(ids, (holder, id) => store.markPublished(holder, [id])),
      };
    },
  },
  'release ignores the claimant': {
    caughtBy: 'a claimant settles only rows it holds; an unknown token settles nothing',
    defect: (store) => {
      const { claim, asHolder } = withLatestClaimant(store);
      return {
        ...store,
        claim,
        release: (_claimant, ids, error) => asHolder(ids, (holder, id) => store.release(holder, [id], error)),
      };
    },
  },
  'claim stamps no lease': {
    caughtBy: 'head of line: while one batch is held, no other claimant gets any row',
    defect: (store) => ({ ...store, claim: (options) => store.claim({ ...options, leaseMs: 0 }) }),
  },
  'claim answers newest first': {
    caughtBy: 'claim answers rows in staging order, within and across transactions',
    defect: (store) => ({ ...store, claim: async (options) => [...(await store.claim(options))].reverse() }),
  },
  'a failed transaction still commits its rows': {
    caughtBy: 'a rolled-back stage leaves no row',
    defect: (store) => ({
      ...store,
      async transaction<T>(fn: (tx: MemoryOutboxTx) => Promise<T>): Promise<T> {
        let failure: unknown;
        const result = await store.transaction((tx) =>
          fn(tx).catch((error: unknown) => {
            failure = error;
            return undefined as T;
          }),
        );
        if (failure !== undefined) throw failure;
        return result;
      },
    }),
  },
};

describe('outbox store conformance catches a broken store', () => {
  it('every case names an existing one', () => {
    const names = new Set(OUTBOX_STORE_CASES.map((testCase) => testCase.name));
    for (const { caughtBy } of Object.values(DEFECTS)) expect(names).toContain(caughtBy);
  });

  for (const [name, { defect, caughtBy }] of Object.entries(DEFECTS)) {
    it(`${name}: caught by "${caughtBy}"`, async () => {
      const testCase = OUTBOX_STORE_CASES.find((candidate) => candidate.name === caughtBy);
      const create = async () => {
        const store = defect(memoryOutboxStore());
        return { store, transaction: store.transaction.bind(store) };
      };
      await expect(runOutboxStoreCase(testCase!, { create })).rejects.toMatchObject({
        name: 'AssertionError',
      });
      // The same case passes on the sound store: the failure is the defect, not the case.
      await runOutboxStoreCase(testCase!, {
        create: async () => {
          const store = memoryOutboxStore();
          return { store, transaction: store.transaction.bind(store) };
        },
      });
    });
  }
});
