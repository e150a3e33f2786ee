import type { JobRecord } from '@x/jobs-core';
import type { AttemptErrorRecord } from '@x/jobs-core/driver';
import type { HeapItem } from './binary-heap.js';
import type { ClaimLine } from './claim-line.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * One job row as the memory driver holds it: the public record with its payload kept as JSON text
 * (copied in once at enqueue, parsed fresh for each reader), plus the claim token, enqueue order,
 * dedupe scope and claim-index slot.
 */
export type MemoryJobRow = Mutable<Omit<JobRecord, 'payload'>> & {
  /** The payload as JSON text: no caller ever shares a reference with it. */
  readonly payloadJson: string;
  /** The fencing token of the current claim; null when not running. */
  token: string | null;
  /** Enqueue order: the FIFO tie-break and the introspection cursor. */
  readonly seq: number;
  /** The row's `dedupeScope` (`memory-store.ts`), computed once. */
  readonly scope: string;
  /** The row's place in the claim index (null while no claim can take it): kept by `fileRow`. */
  indexSlot: IndexSlot | null;
  /** The store's counter when this claim's body started (0 before any start): events published after it count for a suspend. */
  startSeq: number;
  /** The failed attempts' records, oldest first, the newest `ATTEMPT_ERROR_LIMITS.perJob` (null: none yet). */
  errors: AttemptErrorRecord[] | null;
};

/**
 * A claimable row's place in the index. Its keys are copied when it is filed, so a write to the
 * row cannot disorder a heap before `fileRow` files it again.
 */
export interface IndexSlot extends HeapItem {
  readonly row: MemoryJobRow;
  readonly priority: number;
  readonly seq: number;
  runAt: number;
  /** When the row becomes claimable: -Infinity for `ready`, else its `runAt` or lease deadline. */
  dueAt: number;
  heap: ClaimLine<IndexSlot> | null;
}
