import { outboxStoreConformance } from '@x/jobs-conformance';
import { describe, expect, it } from 'vitest';
import { memoryOutboxStore } from '../../src/memory/memory-outbox-store.js';
import { testRequest } from '../../test-support/relay-fixtures.js';

outboxStoreConformance({
  name: 'memory',
  async create() {
    const store = memoryOutboxStore();
    return { store, transaction: (fn) => store.transaction(fn) };
  },
});

const request = (label: string) => testRequest(label, 1);

describe('memoryOutboxStore', () => {
  it('refuses to stage on a transaction that has already committed', async () => {
    const store = memoryOutboxStore();
    const leaked = await store.transaction(async (tx) => tx);
    await expect(store.stage(leaked, request('a'))).rejects.toMatchObject({ code: 'X_OUTBOX_TX_INVALID' });
  });

  it("refuses another store's transaction", async () => {
    const mine = memoryOutboxStore();
    const theirs = memoryOutboxStore();
    await theirs.transaction(async (tx) => {
      await expect(mine.stage(tx, request('a'))).rejects.toMatchObject({ code: 'X_OUTBOX_TX_INVALID' });
    });
  });

  it('wakes subscribers when a transaction with rows commits, never on rollback or an empty commit', async () => {
    const store = memoryOutboxStore();
    const woken: string[] = [];
    const unsubscribe = store.wake?.subscribe((channel) => woken.push(channel));
    await store.transaction(async () => undefined);
    await store
      .transaction((tx) =>
        store.stage(tx, request('rolled-back')).then(() => Promise.reject(new Error('no'))),
      )
      .catch(() => undefined);
    expect(woken).toHaveLength(0);
    await store.transaction((tx) => store.stage(tx, request('committed')));
    expect(woken).toHaveLength(1);
    unsubscribe?.();
    await store.transaction((tx) => store.stage(tx, request('after')));
    expect(woken).toHaveLength(1);
  });

  it('drops a published row: backlog counts only what is left to publish', async () => {
    const store = memoryOutboxStore();
    await store.transaction((tx) => store.stageMany(tx, [request('a'), request('b')]));
    const claimed = await store.claim({ claimant: 'c', limit: 1, leaseMs: 1000 });
    expect(
      await store.markPublished(
        'c',
        claimed.map((record) => record.id),
      ),
    ).toBe(1);
    expect(await store.backlog()).toBe(1);
  });
});
