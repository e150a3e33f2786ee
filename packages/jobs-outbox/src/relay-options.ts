import { hostname } from 'node:os';
import { type JobDriver, type JobsLogger, jsonLinesLogger } from '@x/jobs-core';
import type { OutboxStore } from '@x/jobs-core/driver';
import { outboxError } from './errors.js';

/** Options of `createOutboxRelay`. */
export interface OutboxRelayOptions<Tx> {
  /** The outbox the relay drains. */
  readonly store: OutboxStore<Tx>;
  /** Where committed rows are published. */
  readonly driver: JobDriver;
  /** How long an idle relay waits before the next pass when no wake arrives (ms). (Default: 1000) */
  readonly pollMs?: number;
  /** Rows claimed and published per pass, in one `enqueueMany` (1 to 1,000). (Default: 100) */
  readonly batch?: number;
  /**
   * How long a claimed batch stays this relay's (ms). It is how long the rows of a relay that died
   * mid-batch wait before another relay takes them; keep it well above one publish. (Default: 30000)
   */
  readonly claimLeaseMs?: number;
  /** Receives `jobs.outbox.tick-failed`, `jobs.outbox.publish-failed`, `jobs.outbox.lease-lost`. (Default: JSON lines on stderr) */
  readonly logger?: JobsLogger;
  /** Prefix of every claimant token, for `claimed_by` and logs. (Default: `relay-<hostname>-<pid>`) */
  readonly name?: string;
}

/** The relay's options with defaults applied. */
export interface ResolvedRelayOptions<Tx> {
  readonly store: OutboxStore<Tx>;
  readonly driver: JobDriver;
  readonly pollMs: number;
  readonly batch: number;
  readonly claimLeaseMs: number;
  readonly logger: JobsLogger;
  readonly name: string;
}

/** Largest batch: the most a driver takes in one `enqueueMany`. */
export const MAX_RELAY_BATCH = 1000;

/** Checks the relay's options at construction and applies defaults; `X_OUTBOX_OPTIONS_INVALID` on any bad value. */
export function resolveRelayOptions<Tx>(options: OutboxRelayOptions<Tx>): ResolvedRelayOptions<Tx> {
  if (options.store === undefined || options.driver === undefined) {
    throw invalid(options.store === undefined ? 'store' : 'driver', 'is required');
  }
  const pollMs = options.pollMs ?? 1000;
  const batch = options.batch ?? 100;
  const claimLeaseMs = options.claimLeaseMs ?? 30_000;
  const name = options.name ?? `relay-${hostname()}-${process.pid}`;
  if (!isPositiveInteger(pollMs)) throw invalid('pollMs', 'must be a positive whole number of ms');
  if (!isPositiveInteger(batch) || batch > MAX_RELAY_BATCH) {
    throw invalid('batch', `must be a whole number from 1 to ${MAX_RELAY_BATCH}`);
  }
  if (!isPositiveInteger(claimLeaseMs))
    throw invalid('claimLeaseMs', 'must be a positive whole number of ms');
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name', 'must be a non-empty string');
  return {
    store: options.store,
    driver: options.driver,
    pollMs,
    batch,
    claimLeaseMs,
    logger: options.logger ?? jsonLinesLogger(),
    name,
  };
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function invalid(field: string, rule: string) {
  return outboxError('X_OUTBOX_OPTIONS_INVALID', `createOutboxRelay ${field}: ${rule}.`, { field });
}
