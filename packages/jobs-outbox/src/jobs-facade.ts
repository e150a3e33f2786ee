import type { JobDriver, JobsFacade } from '@x/jobs-core';
import type { EnqueueRequest, EnqueueResult, OutboxStore } from '@x/jobs-core/driver';
import { outboxError } from './errors.js';
import { currentOutboxBinding, type OutboxBinding } from './outbox-context.js';

/** Options of {@link createJobsFacade}. */
export interface OutboxFacadeOptions<Tx> {
  /** Where enqueues inside `withOutbox(trx, …)` are staged. */
  readonly store: OutboxStore<Tx>;
  /** Where enqueues outside a transaction go under `mode: 'optional'`. */
  readonly driver: JobDriver;
  /**
   * `'optional'`: an enqueue outside `withOutbox` publishes straight to `driver` (scripts, tests).
   * `'required'`: it fails `X_OUTBOX_NO_TX`, so no code path can enqueue outside a transaction.
   * (Default: 'optional')
   */
  readonly mode?: 'optional' | 'required';
}

/**
 * The facade that makes every enqueue transactional: install it with core's
 * `setJobsFacade(createJobsFacade({ store, driver }))`. Inside `withOutbox(trx, …)` an enqueue
 * stages its row on `trx` and answers the job id chosen at staging (`deduped: false`: whether a
 * live row holds the key is known only when the relay publishes it).
 */
export function createJobsFacade<Tx>(options: OutboxFacadeOptions<Tx>): JobsFacade {
  const { store, driver } = options;
  const mode = options.mode ?? 'optional';
  if (mode !== 'optional' && mode !== 'required') {
    throw outboxError(
      'X_OUTBOX_OPTIONS_INVALID',
      "createJobsFacade mode: must be 'optional' or 'required'.",
      {
        field: 'mode',
      },
    );
  }
  if (store === undefined || driver === undefined) {
    throw outboxError('X_OUTBOX_OPTIONS_INVALID', 'createJobsFacade needs both a store and a driver.', {
      field: store === undefined ? 'store' : 'driver',
    });
  }

  return {
    async enqueue(request) {
      const binding = joinedTransaction(mode);
      if (binding === undefined) return driver.enqueue(request);
      refuseErrorOnConflict([request]);
      await store.stage(binding.tx as Tx, request);
      return stagedResult(request);
    },
    async enqueueMany(requests) {
      const binding = joinedTransaction(mode);
      if (binding === undefined) return driver.enqueueMany(requests);
      if (requests.length === 0) return [];
      refuseErrorOnConflict(requests);
      await store.stageMany(binding.tx as Tx, requests);
      return requests.map(stagedResult);
    },
  };
}

function joinedTransaction(mode: 'optional' | 'required'): OutboxBinding | undefined {
  const binding = currentOutboxBinding();
  if (binding === undefined) {
    if (mode === 'required') {
      throw outboxError(
        'X_OUTBOX_NO_TX',
        "This enqueue ran outside withOutbox(trx, …) and the outbox facade is in mode: 'required'. " +
          'Wrap the code that enqueues in the transaction that writes its rows.',
      );
    }
    return undefined;
  }
  if (!binding.open) {
    throw outboxError(
      'X_OUTBOX_TX_CLOSED',
      'This enqueue ran after its withOutbox(trx, …) callback returned, so its transaction is over. ' +
        'Await every enqueue inside the callback.',
    );
  }
  return binding;
}

function refuseErrorOnConflict(requests: readonly EnqueueRequest[]): void {
  const offending = requests.find((request) => request.onConflict === 'error');
  if (offending !== undefined) {
    throw outboxError(
      'X_OUTBOX_ON_CONFLICT_UNSUPPORTED',
      `onConflict: 'error' cannot be honoured for a staged enqueue of '${offending.name}': whether a live row ` +
        "holds its key is known only when the relay publishes it. Use 'dedupe', or enqueue outside the transaction.",
      { name: offending.name },
    );
  }
}

function stagedResult(request: EnqueueRequest): EnqueueResult {
  return { id: request.id, runId: request.runId, deduped: false };
}
