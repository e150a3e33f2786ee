import { type FairPolicy, fairOrder } from '@x/jobs-core/driver';
import { ClaimLine } from './claim-line.js';
import type { IndexSlot, MemoryJobRow } from './memory-job-row.js';

/** One queue's claimable rows. */
interface QueueIndex {
  /** Rows claimable now, in claim order: priority DESC, runAt ASC, enqueue order ASC. */
  readonly due: ClaimLine<IndexSlot>;
  /** Rows claimable later (delayed, suspended, or running under a lease), soonest first. */
  readonly later: ClaimLine<IndexSlot>;
}

/**
 * Per-queue lines (heaps with an in-order fast path, see {@link ClaimLine}) of the rows a claim can
 * take, so a claim of k rows costs O(k log n) at worst — O(k) when rows arrive in claim order —
 * instead of sorting every row. Rows that are done, dead or cancelled are not in it.
 */
export interface ClaimIndex {
  readonly queues: Map<string, QueueIndex>;
}

/** Claim order: higher priority first, then earlier runAt, then enqueue order. */
function claimsBefore(a: IndexSlot, b: IndexSlot): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.runAt !== b.runAt) return a.runAt < b.runAt;
  return a.seq < b.seq;
}

/** Time order: the row due first, then enqueue order (so ties resolve the same way every run). */
function dueBefore(a: IndexSlot, b: IndexSlot): boolean {
  return a.dueAt !== b.dueAt ? a.dueAt < b.dueAt : a.seq < b.seq;
}

/** An empty index. */
export function createClaimIndex(): ClaimIndex {
  return { queues: new Map() };
}

/** When `row` becomes claimable, or null when no claim can take it (finished, or running without a lease). */
function dueAtOf(row: MemoryJobRow): number | null {
  switch (row.state) {
    case 'ready':
      return Number.NEGATIVE_INFINITY;
    case 'delayed':
    case 'suspended':
      return row.runAt;
    case 'running':
      return row.leaseExpiresAt;
    default:
      return null;
  }
}

function queueIndex(index: ClaimIndex, queue: string): QueueIndex {
  let found = index.queues.get(queue);
  if (found === undefined) {
    found = { due: new ClaimLine(claimsBefore), later: new ClaimLine(dueBefore) };
    index.queues.set(queue, found);
  }
  return found;
}

function put(heap: ClaimLine<IndexSlot>, slot: IndexSlot): void {
  heap.push(slot);
  slot.heap = heap;
}

/**
 * Files `row` by its current state, runAt and lease, replacing its previous place. Call it after
 * every write to one of those (O(log n)).
 */
export function fileRow(index: ClaimIndex, row: MemoryJobRow): void {
  let slot = row.indexSlot;
  if (slot?.heap) {
    slot.heap.remove(slot);
    slot.heap = null;
  }
  const dueAt = dueAtOf(row);
  if (dueAt === null) {
    row.indexSlot = null;
    return;
  }
  if (slot === null) {
    slot = { row, priority: row.priority, seq: row.seq, runAt: row.runAt, dueAt, heap: null, heapIndex: -1 };
    row.indexSlot = slot;
  }
  slot.runAt = row.runAt;
  slot.dueAt = dueAt;
  const queue = queueIndex(index, row.queue);
  put(dueAt === Number.NEGATIVE_INFINITY ? queue.due : queue.later, slot);
}

/** Every row of `queue` the index holds (any a claim can take now or later), in no particular order. */
export function* indexedRows(index: ClaimIndex, queue: string): Generator<MemoryJobRow> {
  const found = index.queues.get(queue);
  if (found === undefined) return;
  for (const slot of found.due.values()) yield slot.row;
  for (const slot of found.later.values()) yield slot.row;
}

/** Drops `row` from the index (the row is being deleted). */
export function unfileRow(row: MemoryJobRow): void {
  const slot = row.indexSlot;
  if (slot === null) return;
  slot.heap?.remove(slot);
  row.indexSlot = null;
}

/** Moves the rows of `queue` that have come due by `now` (runAt reached, lease lapsed) into its due heap. */
function promoteDue(queue: QueueIndex, now: number): void {
  for (let next = queue.later.peek(); next !== undefined && next.dueAt <= now; next = queue.later.peek()) {
    queue.later.pop();
    put(queue.due, next);
  }
}

/**
 * Takes up to `limit` rows claimable at `now` from `queues`, in claim order across them, out of
 * the index. The caller claims each one and files it again (as `running`). A row promoted earlier
 * but not due at `now` (the clock was set back) goes back to wait.
 */
export function takeDue(
  index: ClaimIndex,
  queues: Iterable<string>,
  now: number,
  limit: number,
): MemoryJobRow[] {
  const lines: QueueIndex[] = [];
  for (const name of queues) {
    const queue = index.queues.get(name);
    if (queue === undefined) continue;
    promoteDue(queue, now);
    if (queue.due.size > 0) lines.push(queue);
  }
  const taken: MemoryJobRow[] = [];
  while (taken.length < limit) {
    let best: QueueIndex | undefined;
    let first: IndexSlot | undefined;
    for (const line of lines) {
      const top = line.due.peek();
      if (top !== undefined && (first === undefined || claimsBefore(top, first))) {
        best = line;
        first = top;
      }
    }
    if (best === undefined || first === undefined) break;
    best.due.pop();
    first.heap = null;
    if (first.dueAt > now) put(best.later, first);
    else taken.push(first.row);
  }
  return taken;
}

/**
 * The fair take of `QueueOptions.fairness` on one queue: up to `limit` rows claimable at `now`,
 * in the fair order (`fairOrder`: start tags over the service the queue gave, `service`, which it
 * updates), out of the index. Reads every due row of the queue: O(n log n).
 */
export function takeDueFair(
  index: ClaimIndex,
  name: string,
  now: number,
  limit: number,
  service: { clock: number; readonly served: Map<string | null, number> },
  policy: FairPolicy,
): MemoryJobRow[] {
  const queue = index.queues.get(name);
  if (queue === undefined) return [];
  promoteDue(queue, now);
  const due = queue.due
    .items()
    .filter((slot) => slot.dueAt <= now)
    .map((slot) => ({
      slot,
      tenantId: slot.row.tenantId,
      priority: slot.priority,
      runAt: slot.runAt,
      seq: slot.seq,
    }));
  const take = fairOrder(due, service, limit, policy.costOf);
  service.clock = take.clock;
  for (const [tenant, served] of take.served) service.served.set(tenant, served);
  return take.rows.map(({ slot }) => {
    queue.due.remove(slot);
    slot.heap = null;
    return slot.row;
  });
}
