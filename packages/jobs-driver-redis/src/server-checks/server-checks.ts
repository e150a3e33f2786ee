import { randomUUID } from 'node:crypto';
import { type JobsError, type JobsLogger, jsonLinesLogger } from '@x/jobs-core';
import { redisError } from '../errors.js';
import type { KeySpace } from '../key-space.js';
import type { RedisClient } from '../redis-client.js';
import { ensureMarker } from './data-loss-marker.js';
import type { RedisServerCheckOptions } from './server-check-options.js';
import { readServerFacts, type ServerFacts } from './server-facts.js';
import { countDataLost } from './server-metrics.js';

/** Per logger, the warnings already said (by server run id), so each is said once per process. */
const warned = new WeakMap<JobsLogger, Set<string>>();

/** The logger of drivers given none: one per process, so its warnings are deduplicated too. */
const defaultLogger: JobsLogger = jsonLinesLogger();

/**
 * What the driver checks each time its client becomes ready, and the gate every operation passes:
 * - `maxmemory-policy` other than `noeviction` refuses every operation with
 *   `X_REDIS_EVICTION_POLICY` (or, with `allowEviction`, logs `redis.server.eviction-policy`);
 * - neither AOF nor RDB on logs `redis.server.not-persistent` at warn;
 * - the marker key gone on a later connect logs `redis.server.emptied` at error and counts
 *   `redis_server_data_lost_total` — the server restarted without persistence (its run id changed)
 *   or was flushed or evicted.
 * Operations issued while a check runs wait for it (one round trip). A check that cannot read the
 * server (the connection dropped again) changes nothing and runs again on the next connect.
 */
export class ServerChecks {
  readonly #client: RedisClient;
  readonly #markerKey: string;
  readonly #prefix: string;
  readonly #allowEviction: boolean;
  readonly #logger: JobsLogger;
  /** This driver instance's id, written into the marker. */
  readonly epoch = randomUUID();
  #pending: Promise<void> | null = null;
  #refusal: JobsError | undefined;
  #lastRunId: string | null = null;
  #checks = 0;

  constructor(client: RedisClient, keys: KeySpace, prefix: string, options: RedisServerCheckOptions) {
    this.#client = client;
    this.#markerKey = `${keys.base}marker`;
    this.#prefix = prefix;
    this.#allowEviction = options.allowEviction === true;
    this.#logger = options.logger ?? defaultLogger;
  }

  /** The marker key's name. */
  get markerKey(): string {
    return this.#markerKey;
  }

  /** Starts a check; called on every `ready` of the client. */
  onReady(): void {
    const previous = this.#pending ?? Promise.resolve();
    const run = previous.then(() => this.#check());
    this.#pending = run;
    void run.finally(() => {
      if (this.#pending === run) this.#pending = null;
    });
  }

  /**
   * The gate of one operation: throws the refusal when the server breaks the driver's promise,
   * answers a promise to wait for while a check runs, else undefined (no await on the hot path).
   */
  pass(): Promise<void> | undefined {
    if (this.#pending !== null) return this.#pending.then(() => this.#throwRefusal());
    this.#throwRefusal();
    return undefined;
  }

  #throwRefusal(): void {
    if (this.#refusal !== undefined) throw this.#refusal;
  }

  async #check(): Promise<void> {
    let facts: ServerFacts;
    let marker: 'present' | 'written';
    try {
      facts = await readServerFacts(this.#client);
      marker = await ensureMarker(this.#client, this.#markerKey, this.epoch, facts.runId);
    } catch (error) {
      this.#logger.log('debug', 'redis.server.check-failed', { error: String(error) });
      return;
    }
    const first = this.#checks++ === 0;
    this.#checkEviction(facts);
    this.#checkPersistence(facts);
    if (!first && marker === 'written') {
      const restarted = facts.runId !== this.#lastRunId;
      this.#logger.log('error', 'redis.server.emptied', {
        prefix: this.#prefix,
        restarted,
        previousRunId: this.#lastRunId,
        runId: facts.runId,
        hint: restarted
          ? 'Redis restarted without the data: enable AOF (appendonly yes) or RDB; queued and finished jobs of this prefix are gone.'
          : 'The driver marker was deleted (FLUSHALL, eviction or a manual delete): jobs of this prefix may be gone.',
      });
      countDataLost(this.#prefix, restarted);
    }
    this.#lastRunId = facts.runId;
  }

  #checkEviction(facts: ServerFacts): void {
    const policy = facts.maxmemoryPolicy;
    if (policy === null || policy === 'noeviction') {
      this.#refusal = undefined;
      return;
    }
    if (!this.#allowEviction) {
      this.#refusal = redisError(
        'X_REDIS_EVICTION_POLICY',
        `Redis runs with maxmemory-policy ${policy}: it deletes keys, acknowledged jobs among them, when memory runs out. Set maxmemory-policy noeviction, or pass allowEviction: true to accept the loss.`,
        { maxmemoryPolicy: policy },
      );
      return;
    }
    this.#refusal = undefined;
    this.#warnOnce(`eviction:${facts.runId}`, 'redis.server.eviction-policy', {
      maxmemoryPolicy: policy,
      hint: 'allowEviction is on: Redis may delete acknowledged jobs when memory runs out.',
    });
  }

  #checkPersistence(facts: ServerFacts): void {
    if (facts.aofEnabled !== false || facts.rdbEnabled !== false) return;
    this.#warnOnce(`persistence:${facts.runId}`, 'redis.server.not-persistent', {
      hint: 'Neither AOF nor RDB is on: a restart of this Redis loses every job. Enable appendonly yes.',
    });
  }

  #warnOnce(key: string, event: string, fields: Record<string, unknown>): void {
    const said = warned.get(this.#logger) ?? new Set<string>();
    warned.set(this.#logger, said);
    if (said.has(key)) return;
    said.add(key);
    this.#logger.log('warn', event, { prefix: this.#prefix, ...fields });
  }
}
