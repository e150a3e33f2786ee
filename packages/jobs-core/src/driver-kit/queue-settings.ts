import type { ClaimOptions } from '../driver/claim.js';
import { coreError } from '../errors/core-error.js';
import { type FairPolicy, parseFairness } from './fair-policy.js';

const QUEUE_OPTION_KEYS = new Set(['fairness']);

/** A driver's parsed `queues` option: which queues claim fairly. */
export interface QueueSettings {
  /** The queues with a `fairness` other than `'none'`. */
  readonly fairQueues: ReadonlySet<string>;
  /** Each fair queue's policy (its tenants' weights and row costs). */
  readonly fairPolicies: ReadonlyMap<string, FairPolicy>;
}

/**
 * For driver authors: parses a factory's `queues` option strictly. Throws `X_QUEUE_OPTIONS_INVALID`
 * (naming `caller` and the field) for anything but a plain object of queue name → options, a
 * queue name that is empty, an unknown option key, or a misdeclared `fairness` (see `parseFairness`).
 * `undefined` is no queue settings.
 */
export function parseQueueOptions(raw: unknown, caller: string): QueueSettings {
  const fairQueues = new Set<string>();
  const fairPolicies = new Map<string, FairPolicy>();
  if (raw === undefined) return { fairQueues, fairPolicies };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw coreError(
      'X_QUEUE_OPTIONS_INVALID',
      `${caller}: queues must be an object of queue name → options.`,
      {
        field: 'queues',
      },
    );
  }
  for (const [queue, options] of Object.entries(raw)) {
    const field = `queues.${queue}`;
    if (queue === '') {
      throw coreError('X_QUEUE_OPTIONS_INVALID', `${caller}: a queue name must not be empty.`, { field });
    }
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw coreError('X_QUEUE_OPTIONS_INVALID', `${caller}: ${field} must be an object.`, { field });
    }
    for (const key of Object.keys(options)) {
      if (!QUEUE_OPTION_KEYS.has(key)) {
        throw coreError('X_QUEUE_OPTIONS_INVALID', `${caller}: ${field}.${key} is not a queue option.`, {
          field: `${field}.${key}`,
        });
      }
    }
    const policy = parseFairness((options as { fairness?: unknown }).fairness, caller, `${field}.fairness`);
    if (policy !== undefined) {
      fairQueues.add(queue);
      fairPolicies.set(queue, policy);
    }
  }
  return { fairQueues, fairPolicies };
}

/**
 * For driver authors: whether `options` is a fair claim. True when it names one fair queue (and
 * nothing else); false when it names no fair queue. A claim naming a fair queue together with
 * other queues is refused with `X_CLAIM_FAIRNESS_MIXED`: fairness is defined within one queue,
 * and a worker claims one queue per pool.
 */
export function isFairClaim(settings: QueueSettings, options: ClaimOptions): boolean {
  if (settings.fairQueues.size === 0) return false;
  const queues = new Set(options.queues);
  const fair = [...queues].filter((queue) => settings.fairQueues.has(queue));
  if (fair.length === 0) return false;
  if (queues.size > 1) {
    throw coreError(
      'X_CLAIM_FAIRNESS_MIXED',
      'claim: a queue with fairness: "tenant" is claimed on its own, not together with other queues.',
      { queues: [...queues], fair },
    );
  }
  return true;
}
