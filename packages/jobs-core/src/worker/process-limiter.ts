import { coreError } from '../errors/core-error.js';
import type { Clock } from '../primitives/clock.js';
import { parseDuration } from '../values/duration.js';
import type { LimitConfig } from './limit-config.js';

/** A granted admission: call `release()` once the job settles. */
export interface LimitAdmission {
  readonly admitted: true;
  release(): void;
}

/** A refusal: hand the job back to run again after `retryInMs`, attempt uncounted. */
export interface LimitRefusal {
  readonly admitted: false;
  /** Which cap refused it, for the log. */
  readonly cap: 'perTenant' | 'perQueue' | 'global' | 'ratePerTenant';
  readonly retryInMs: number;
}

const NO_TENANT = '\u0000none';

/** The admission of a limiter with no caps: nothing is counted, so nothing is released. */
const UNCAPPED: LimitAdmission = Object.freeze({ admitted: true, release: () => undefined });

/** Enforces a {@link LimitConfig} over the jobs this process holds. */
export class ProcessLimiter {
  readonly #config: LimitConfig;
  readonly #ratePerMs: number | undefined;
  readonly #byTenant = new Map<string, number>();
  readonly #byQueue = new Map<string, number>();
  readonly #starts = new Map<string, number[]>();
  #global = 0;
  /** No cap configured: every job is admitted without being counted. */
  readonly #uncapped: boolean;

  constructor(config: LimitConfig = {}) {
    for (const [field, value] of [
      ['perTenant', config.perTenant],
      ['global', config.global],
      ...(typeof config.perQueue === 'number' ? [['perQueue', config.perQueue] as const] : []),
      ...Object.entries(typeof config.perQueue === 'object' ? config.perQueue : {}).map(
        ([queue, limit]) => [`perQueue.${queue}`, limit] as const,
      ),
      ['ratePerTenant.limit', config.ratePerTenant?.limit],
    ] as const) {
      if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
        throw coreError(
          'X_WORKER_OPTIONS_INVALID',
          `limits.${field}: must be a positive integer (got ${String(value)}).`,
          {
            field: `limits.${field}`,
          },
        );
      }
    }
    this.#config = config;
    this.#uncapped =
      config.global === undefined &&
      config.perQueue === undefined &&
      config.perTenant === undefined &&
      config.ratePerTenant === undefined;
    this.#ratePerMs =
      config.ratePerTenant === undefined
        ? undefined
        : parseDuration(config.ratePerTenant.per, 'limits.ratePerTenant.per');
  }

  /** Admits a job of `queue`/`tenantId`, or says when to try again; reads `clock` only for a rate cap. */
  admit(queue: string, tenantId: string | null, clock: Clock): LimitAdmission | LimitRefusal {
    if (this.#uncapped) return UNCAPPED;
    const tenant = tenantId ?? NO_TENANT;
    const queueCap =
      typeof this.#config.perQueue === 'number' ? this.#config.perQueue : this.#config.perQueue?.[queue];
    if (this.#config.global !== undefined && this.#global >= this.#config.global) {
      return { admitted: false, cap: 'global', retryInMs: 250 };
    }
    if (queueCap !== undefined && (this.#byQueue.get(queue) ?? 0) >= queueCap) {
      return { admitted: false, cap: 'perQueue', retryInMs: 250 };
    }
    if (
      tenantId !== null &&
      this.#config.perTenant !== undefined &&
      (this.#byTenant.get(tenant) ?? 0) >= this.#config.perTenant
    ) {
      return { admitted: false, cap: 'perTenant', retryInMs: 250 };
    }
    if (tenantId !== null && this.#config.ratePerTenant !== undefined && this.#ratePerMs !== undefined) {
      const now = clock.now();
      const window = this.#ratePerMs;
      const starts = (this.#starts.get(tenant) ?? []).filter((at) => at > now - window);
      this.#pruneRateWindows(now - window);
      if (starts.length >= this.#config.ratePerTenant.limit) {
        this.#starts.set(tenant, starts);
        return { admitted: false, cap: 'ratePerTenant', retryInMs: Math.max(1, starts[0]! + window - now) };
      }
      starts.push(now);
      this.#starts.set(tenant, starts);
    }
    this.#global += 1;
    this.#byQueue.set(queue, (this.#byQueue.get(queue) ?? 0) + 1);
    this.#byTenant.set(tenant, (this.#byTenant.get(tenant) ?? 0) + 1);
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        this.#global -= 1;
        decrement(this.#byQueue, queue);
        decrement(this.#byTenant, tenant);
      },
    };
  }

  /** How many tenants hold a slot now (for tests of the limiter's memory). */
  trackedTenants(): number {
    return this.#byTenant.size;
  }

  /** Forgets tenants whose starts all left the window, so a long-lived worker does not grow. */
  #pruneRateWindows(horizon: number): void {
    if (this.#starts.size < 1024) return;
    for (const [tenant, starts] of this.#starts) {
      if (starts.every((at) => at <= horizon)) this.#starts.delete(tenant);
    }
  }
}

/** Counts one job out; a key at zero is forgotten, so tenant maps do not grow without bound. */
function decrement(counts: Map<string, number>, key: string): void {
  const next = (counts.get(key) ?? 1) - 1;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
