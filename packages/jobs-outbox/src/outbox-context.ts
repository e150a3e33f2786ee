import { AsyncLocalStorage } from 'node:async_hooks';

/** The transaction an enqueue joins, and whether the `withOutbox` callback that bound it is still running. */
export interface OutboxBinding {
  readonly tx: unknown;
  open: boolean;
}

const storage = new AsyncLocalStorage<OutboxBinding>();

/**
 * Runs `fn` with `tx` bound as the transaction every enqueue inside it joins: with the outbox
 * facade installed, `handle.enqueue`, `.as`, `enqueueMany` and task fires stage their rows on
 * `tx`'s connection, so they commit or roll back with the app's own writes.
 *
 * ```ts
 * await db.transaction().execute((trx) =>
 *   withOutbox(trx, async () => {
 *     await trx.insertInto('invoice').values(invoice).execute();
 *     await createInvoice.enqueue({ invoiceId: invoice.id });
 *   }),
 * );
 * ```
 *
 * Bind the transaction object (`trx`), never the pool: staging on the pool would commit alone.
 * An enqueue that escapes the callback (a promise left running after it returned) fails
 * `X_OUTBOX_TX_CLOSED` instead of landing outside the transaction.
 */
export async function withOutbox<T>(tx: unknown, fn: () => Promise<T>): Promise<T> {
  const binding: OutboxBinding = { tx, open: true };
  try {
    return await storage.run(binding, fn);
  } finally {
    binding.open = false;
  }
}

/** The binding of the innermost `withOutbox` around the caller, or undefined outside one. */
export function currentOutboxBinding(): OutboxBinding | undefined {
  return storage.getStore();
}
