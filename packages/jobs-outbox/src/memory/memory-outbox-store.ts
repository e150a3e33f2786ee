import { type Clock, systemClock } from '@x/jobs-core';
import type {
  EnqueueRequest,
  OutboxClaimOptions,
  OutboxRecord,
  OutboxStore,
  WakeSource,
} from '@x/jobs-core/driver';
import { outboxError } from '../errors.js';

/** A transaction of a {@link MemoryOutboxStore}: opaque; bind it with `withOutbox(tx, …)`. */
export interface MemoryOutboxTx {
  readonly kind: 'memory-outbox-tx';
}

/** The in-process outbox store: tests and dev, with transactions of its own. */
export interface MemoryOutboxStore extends OutboxStore<MemoryOutboxTx> {
  /**
   * Runs `fn` in a transaction: rows staged on `tx` become claimable when `fn` resolves and are
   * dropped when it throws (the error is rethrown).
   */
  transaction<T>(fn: (tx: MemoryOutboxTx) => Promise<T>): Promise<T>;
}

/** Options of {@link memoryOutboxStore}. */
export interface MemoryOutboxStoreOptions {
  /** Where `stagedAt` and leases read the time. (Default: the wall clock) */
  readonly clock?: Clock;
}

interface MemoryRow {
  readonly id: string;
  readonly seq: number;
  readonly request: EnqueueRequest;
  readonly stagedAt: number;
  claimedBy: string | null;
  claimedUntil: number | null;
  attempts: number;
  lastError: string | null;
}

interface TxState {
  readonly startedAt: number;
  readonly staged: MemoryRow[];
  open: boolean;
}

/**
 * An outbox store in process memory with the same contract as the Postgres one (it passes the
 * same conformance suite). A published row is dropped, so `backlog()` is what is left to publish;
 * nothing survives the process.
 */
export function memoryOutboxStore(options: MemoryOutboxStoreOptions = {}): MemoryOutboxStore {
  const clock = options.clock ?? systemClock;
  const rows = new Map<string, MemoryRow>();
  const transactions = new WeakMap<MemoryOutboxTx, TxState>();
  const listeners = new Set<(channel: string) => void>();
  let seq = 0;

  const openState = (tx: MemoryOutboxTx): TxState => {
    const state = transactions.get(tx);
    if (state === undefined || !state.open) {
      throw outboxError(
        'X_OUTBOX_TX_INVALID',
        state === undefined
          ? 'memoryOutboxStore can stage only on a transaction it opened with store.transaction(fn).'
          : 'This memoryOutboxStore transaction has already committed or rolled back.',
      );
    }
    return state;
  };

  const toRow = (state: TxState, request: EnqueueRequest): MemoryRow => {
    seq += 1;
    return {
      id: String(seq),
      seq,
      request: JSON.parse(JSON.stringify(request)) as EnqueueRequest,
      stagedAt: state.startedAt,
      claimedBy: null,
      claimedUntil: null,
      attempts: 0,
      lastError: null,
    };
  };

  const heldBy = (claimant: string, ids: readonly string[]): MemoryRow[] =>
    ids.flatMap((id) => {
      const row = rows.get(id);
      return row !== undefined && row.claimedBy === claimant ? [row] : [];
    });

  const wake: WakeSource = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  return {
    name: 'memory',
    wake,

    async transaction(fn) {
      const tx: MemoryOutboxTx = { kind: 'memory-outbox-tx' };
      const state: TxState = { startedAt: clock.now(), staged: [], open: true };
      transactions.set(tx, state);
      try {
        const result = await fn(tx);
        for (const row of state.staged) rows.set(row.id, row);
        if (state.staged.length > 0) for (const listener of listeners) listener('memory-outbox');
        return result;
      } finally {
        state.open = false;
      }
    },

    async stage(tx, request) {
      const state = openState(tx);
      state.staged.push(toRow(state, request));
    },

    async stageMany(tx, requests) {
      const state = openState(tx);
      for (const request of requests) state.staged.push(toRow(state, request));
    },

    async claim({ claimant, limit, leaseMs }: OutboxClaimOptions) {
      const now = clock.now();
      const pending = [...rows.values()];
      if (pending.some((row) => row.claimedUntil !== null && row.claimedUntil > now)) return [];
      pending.sort((a, b) => a.stagedAt - b.stagedAt || a.seq - b.seq);
      return pending.slice(0, limit).map((row): OutboxRecord => {
        row.claimedBy = claimant;
        row.claimedUntil = now + leaseMs;
        row.attempts += 1;
        return {
          id: row.id,
          request: JSON.parse(JSON.stringify(row.request)) as EnqueueRequest,
          stagedAt: row.stagedAt,
          claimedBy: claimant,
          claimedUntil: row.claimedUntil,
          attempts: row.attempts,
          lastError: row.lastError,
        };
      });
    },

    async release(claimant, ids, error) {
      const held = heldBy(claimant, ids);
      for (const row of held) {
        row.claimedBy = null;
        row.claimedUntil = null;
        if (error !== undefined) row.lastError = error;
      }
      return held.length;
    },

    async markPublished(claimant, ids) {
      const held = heldBy(claimant, ids);
      for (const row of held) rows.delete(row.id);
      return held.length;
    },

    async backlog() {
      return rows.size;
    },
  };
}
