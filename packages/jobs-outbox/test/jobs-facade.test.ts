import { type JobDriver, job, setJobsFacade } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobsFacade } from '../src/jobs-facade.js';
import { type MemoryOutboxStore, memoryOutboxStore } from '../src/memory/memory-outbox-store.js';
import { withOutbox } from '../src/outbox-context.js';

const createInvoice = job({
  name: 'facade-create-invoice',
  input: z.object({ orgId: z.string(), invoiceId: z.string() }),
  idempotencyKey: ({ invoiceId }) => `invoice:${invoiceId}`,
  tenant: ({ orgId }) => orgId,
  run: async () => undefined,
});

let store: MemoryOutboxStore;
let driver: JobDriver;
const install = (mode?: 'optional' | 'required') =>
  setJobsFacade(createJobsFacade({ store, driver, ...(mode === undefined ? {} : { mode }) }));
const rowsInDriver = async () =>
  (await driver.introspect?.list({ name: 'facade-create-invoice' }))?.jobs ?? [];
const backlogIds = async () =>
  (await store.claim({ claimant: 'peek', limit: 1000, leaseMs: 1 })).map((record) => record.request.id);

beforeEach(() => {
  store = memoryOutboxStore();
  driver = memoryJobDriver();
});
afterEach(() => {
  setJobsFacade(null);
});

describe('createJobsFacade inside withOutbox', () => {
  it('stages the enqueue instead of publishing it, answering the job id chosen at staging', async () => {
    install();
    const result = await store.transaction((tx) =>
      withOutbox(tx, () => createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'inv-1' })),
    );
    expect(result.deduped).toBe(false);
    expect(await rowsInDriver()).toHaveLength(0);
    expect(await backlogIds()).toEqual([result.id]);
  });

  it('stages nothing when the transaction rolls back', async () => {
    install('required');
    await expect(
      store.transaction((tx) =>
        withOutbox(tx, async () => {
          await createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'inv-1' });
          throw new Error('the invoice insert failed');
        }),
      ),
    ).rejects.toThrow();
    expect(await store.backlog()).toBe(0);
    expect(await rowsInDriver()).toHaveLength(0);
  });

  it('stages enqueueMany as one batch and .as() with its actor, in call order', async () => {
    install();
    const ids = await store.transaction((tx) =>
      withOutbox(tx, async () => {
        const many = await createInvoice.enqueueMany([
          { orgId: 'org-1', invoiceId: 'a' },
          { orgId: 'org-1', invoiceId: 'b' },
        ]);
        const one = await createInvoice.as(
          { id: 'user-7', orgId: 'org-1' },
          { orgId: 'org-1', invoiceId: 'c' },
        );
        return [...many.map((result) => result.id), one.id];
      }),
    );
    const records = await store.claim({ claimant: 'check', limit: 10, leaseMs: 1000 });
    expect(records.map((record) => record.request.id)).toEqual(ids);
    expect(records[2]?.request.enqueuedBy).toBe('user-7');
  });

  it("refuses onConflict: 'error' (X_OUTBOX_ON_CONFLICT_UNSUPPORTED) and stages nothing", async () => {
    install();
    await store.transaction((tx) =>
      withOutbox(tx, async () => {
        await expect(
          createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'x' }, { onConflict: 'error' }),
        ).rejects.toMatchObject({ code: 'X_OUTBOX_ON_CONFLICT_UNSUPPORTED' });
      }),
    );
    expect(await store.backlog()).toBe(0);
  });

  it('refuses an enqueue that escaped the callback (X_OUTBOX_TX_CLOSED) instead of publishing it', async () => {
    install();
    let escaped: Promise<unknown> | undefined;
    await store.transaction((tx) =>
      withOutbox(tx, async () => {
        // Started inside, never awaited: it runs after the transaction is over.
        escaped = new Promise((resolve) => setTimeout(resolve, 5)).then(() =>
          createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'late' }),
        );
      }),
    );
    await expect(escaped).rejects.toMatchObject({ code: 'X_OUTBOX_TX_CLOSED' });
    expect(await store.backlog()).toBe(0);
    expect(await rowsInDriver()).toHaveLength(0);
  });

  it('refuses a bound value that is not a transaction of the store (X_OUTBOX_TX_INVALID)', async () => {
    install();
    await expect(
      withOutbox({ not: 'a transaction' }, () => createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'x' })),
    ).rejects.toMatchObject({ code: 'X_OUTBOX_TX_INVALID' });
  });
});

describe('createJobsFacade outside a transaction', () => {
  it("publishes straight to the driver under mode: 'optional'", async () => {
    install('optional');
    const result = await createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'direct' });
    expect((await rowsInDriver()).map((row) => row.id)).toEqual([result.id]);
    expect(await store.backlog()).toBe(0);
  });

  it("fails X_OUTBOX_NO_TX under mode: 'required', for enqueue and enqueueMany alike, writing nothing", async () => {
    install('required');
    await expect(createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'a' })).rejects.toMatchObject({
      code: 'X_OUTBOX_NO_TX',
    });
    await expect(createInvoice.enqueueMany([{ orgId: 'org-1', invoiceId: 'b' }])).rejects.toMatchObject({
      code: 'X_OUTBOX_NO_TX',
    });
    expect(await rowsInDriver()).toHaveLength(0);
    expect(await store.backlog()).toBe(0);
  });

  it('refuses an unknown mode at construction (X_OUTBOX_OPTIONS_INVALID)', () => {
    expect(() => createJobsFacade({ store, driver, mode: 'sometimes' as never })).toThrow(
      expect.objectContaining({ code: 'X_OUTBOX_OPTIONS_INVALID' }),
    );
  });
});
