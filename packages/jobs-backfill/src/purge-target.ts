import { backfillError } from './errors.js';

/**
 * A store with rows that expire: structural, so this package imports none of the stores it
 * sweeps. `purgeExpired(nowMs)` deletes what expired before `nowMs` (the pass's one clock
 * reading, never the store's own) and answers how many rows it removed. A replayed call deletes
 * rows that are already gone, so at least once is safe.
 */
export interface PurgeTarget {
  /** Unique within one purge: it names the target's step (`purge:<name>`). */
  readonly name: string;
  purgeExpired(nowMs: number, signal: AbortSignal): number | Promise<number>;
}

/** The targets of a purge: a list, or a thunk read once per attempt (stores built after boot). */
export type PurgeTargets = readonly PurgeTarget[] | (() => readonly PurgeTarget[]);

/**
 * Reads and checks the targets of one attempt: each `{ name, purgeExpired }`
 * (`X_PURGE_TARGET_INVALID`), no name twice (`X_PURGE_TARGET_DUPLICATE`), before the first delete.
 */
export function readPurgeTargets(purge: string, targets: PurgeTargets): readonly PurgeTarget[] {
  const list: unknown = typeof targets === 'function' ? targets() : targets;
  if (!Array.isArray(list)) {
    throw backfillError('X_PURGE_TARGET_INVALID', `purge '${purge}': targets must be a list of targets.`, {
      purge,
    });
  }
  const seen = new Set<string>();
  list.forEach((target: unknown, index) => {
    const candidate = target as Partial<PurgeTarget> | null;
    if (
      candidate === null ||
      typeof candidate !== 'object' ||
      typeof candidate.name !== 'string' ||
      candidate.name === '' ||
      typeof candidate.purgeExpired !== 'function'
    ) {
      throw backfillError(
        'X_PURGE_TARGET_INVALID',
        `purge '${purge}': target ${index} is not { name, purgeExpired(nowMs) }.`,
        { purge, index },
      );
    }
    if (seen.has(candidate.name)) {
      throw backfillError(
        'X_PURGE_TARGET_DUPLICATE',
        `purge '${purge}': two targets are named '${candidate.name}'; give each its own name.`,
        { purge, target: candidate.name },
      );
    }
    seen.add(candidate.name);
  });
  return list as readonly PurgeTarget[];
}

/** A target's answer, parsed: a non-negative safe integer. */
export function readRemoved(purge: string, target: string, removed: unknown): number {
  if (typeof removed !== 'number' || !Number.isSafeInteger(removed) || removed < 0) {
    throw backfillError(
      'X_PURGE_TARGET_INVALID',
      `purge '${purge}': target '${target}' must answer the number of rows it removed.`,
      { purge, target },
    );
  }
  return removed;
}
