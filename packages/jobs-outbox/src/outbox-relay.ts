import { randomUUID } from 'node:crypto';
import { errorCode } from '@x/jobs-core';
import type { EnqueueRequest, OutboxRecord } from '@x/jobs-core/driver';
import { type OutboxRelayOptions, type ResolvedRelayOptions, resolveRelayOptions } from './relay-options.js';

/** What one relay pass did. */
export interface OutboxPass {
  /** Rows the pass claimed. */
  readonly claimed: number;
  /** Rows it published and marked (0 when the publish failed and the batch was released). */
  readonly published: number;
}

/** The loop that moves committed outbox rows onto the queue. */
export interface OutboxRelay {
  /** Starts the loop: a pass now, then one per wake or `pollMs`, at once again after a full batch. Idempotent. */
  start(): void;
  /**
   * Stops the loop and resolves once the pass in flight (a publish and its markPublished) has
   * finished. Await it before closing the database or the driver.
   */
  stop(): Promise<void>;
  /** Runs one pass now (tests, scripts, a cron): claim, publish in order, mark published. */
  runOnce(): Promise<OutboxPass>;
}

/**
 * Creates the relay: each pass claims up to `batch` committed rows under a fresh claimant token
 * with a `claimLeaseMs` lease, publishes them in `(stagedAt, id)` order with one
 * `driver.enqueueMany` (`onConflict: 'dedupe'`, each with the job id chosen at staging, so a
 * re-publish after a crash dedupes while that job is live), then marks them published. A failed
 * publish releases the whole batch at once and the next pass retries it from the same head, so a
 * later row never overtakes an earlier one. A pass that throws is logged as
 * `jobs.outbox.tick-failed` and the loop re-arms. After a failed pass or publish the relay waits
 * `pollMs` even if commits wake it, so a down driver is not retried once per commit.
 */
export function createOutboxRelay<Tx>(options: OutboxRelayOptions<Tx>): OutboxRelay {
  const config = resolveRelayOptions(options);
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let wokenDuringPass = false;
  // After a failed pass, wakes wait for the poll interval: a down driver is not retried per commit.
  let cooling = false;
  let unsubscribe: (() => void) | undefined;

  const arm = (delayMs: number): void => {
    timer = setTimeout(tick, delayMs);
  };

  const tick = (): void => {
    timer = undefined;
    cooling = false;
    inFlight = runPass(config)
      .then(
        (pass) => {
          cooling = pass.published < pass.claimed;
          return pass.claimed === config.batch && !cooling ? 0 : config.pollMs;
        },
        (error: unknown) => {
          cooling = true;
          config.logger.log('error', 'jobs.outbox.tick-failed', {
            relay: config.name,
            code: errorCode(error) ?? 'ERROR',
            message: error instanceof Error ? error.message : String(error),
          });
          return config.pollMs;
        },
      )
      .then((delayMs) => {
        inFlight = undefined;
        const woken = wokenDuringPass && !cooling;
        wokenDuringPass = false;
        if (running) arm(woken ? 0 : delayMs);
      });
  };

  const wake = (): void => {
    if (!running || cooling) return;
    if (inFlight !== undefined) {
      wokenDuringPass = true;
      return;
    }
    clearTimeout(timer);
    arm(0);
  };

  return {
    start() {
      if (running) return;
      running = true;
      unsubscribe = config.store.wake?.subscribe(wake);
      if (inFlight === undefined) arm(0);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
      await inFlight;
    },
    runOnce: () => runPass(config),
  };
}

async function runPass<Tx>(config: ResolvedRelayOptions<Tx>): Promise<OutboxPass> {
  const { store, driver, logger } = config;
  const claimant = `${config.name}:${randomUUID()}`;
  const records = await store.claim({ claimant, limit: config.batch, leaseMs: config.claimLeaseMs });
  if (records.length === 0) return { claimed: 0, published: 0 };
  const ids = records.map((record) => record.id);

  try {
    await driver.enqueueMany(records.map(publishable));
  } catch (error) {
    const code = errorCode(error) ?? 'ERROR';
    const message = error instanceof Error ? error.message : String(error);
    const head = records[0] as OutboxRecord;
    logger.log('warn', 'jobs.outbox.publish-failed', {
      relay: config.name,
      code,
      message,
      rows: records.length,
      headJobId: head.request.id,
      headAttempts: head.attempts,
    });
    await store.release(claimant, ids, `${code}: ${message}`.slice(0, 1000));
    return { claimed: records.length, published: 0 };
  }

  const marked = await store.markPublished(claimant, ids);
  if (marked < records.length) {
    logger.log('warn', 'jobs.outbox.lease-lost', {
      relay: config.name,
      rows: records.length,
      marked,
      claimLeaseMs: config.claimLeaseMs,
    });
  }
  return { claimed: records.length, published: records.length };
}

function publishable(record: OutboxRecord): EnqueueRequest {
  return { ...record.request, onConflict: 'dedupe' };
}
