import type { KeySpace } from './key-space.js';
import type { LuaScript, ScriptKeyLabel } from './lua-script.js';
import type { RedisClient } from './redis-client.js';

/** Keys a caller passes itself because they depend on the call (a run's steps hash, a lease key). */
export type DynamicKeys = Partial<Record<ScriptKeyLabel, string>>;

/**
 * Runs the driver's Lua scripts by SHA. Every script is loaded once per server with SCRIPT LOAD
 * (at each connection's ready); a server that lost its script cache (a restart, SCRIPT FLUSH)
 * answers NOSCRIPT and the call is repeated with EVAL, which caches it again.
 */
export class ScriptRunner {
  readonly #client: RedisClient;
  readonly #keys: KeySpace;

  constructor(client: RedisClient, keys: KeySpace) {
    this.#client = client;
    this.#keys = keys;
  }

  /** Runs `script` with its declared KEYS (static ones from the key space, the rest from `dynamic`). */
  async run(
    script: LuaScript,
    args: readonly (string | number)[],
    dynamic: DynamicKeys = {},
  ): Promise<unknown> {
    const keys = script.keys.map((label) => dynamic[label] ?? this.#staticKey(label, script));
    try {
      return await this.#client.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await this.#client.eval(script.lua, keys.length, ...keys, ...args);
    }
  }

  /** Loads `scripts` into the server's script cache; failures are left to the NOSCRIPT fallback. */
  async preload(scripts: readonly LuaScript[]): Promise<void> {
    await Promise.all(
      scripts.map((script) => this.#client.script('LOAD', script.lua).catch(() => undefined)),
    );
  }

  #staticKey(label: ScriptKeyLabel, script: LuaScript): string {
    switch (label) {
      case 'base':
        return this.#keys.base;
      case 'seq':
        return this.#keys.seq;
      case 'dedupe':
        return this.#keys.dedupe;
      case 'jobs':
        return this.#keys.jobs;
      case 'queues':
        return this.#keys.queues;
      case 'paused':
        return this.#keys.paused;
      case 'event_records':
        return this.#keys.eventRecords;
      case 'event_expiry':
        return this.#keys.eventExpiry;
      case 'workers':
        return this.#keys.workers;
      case 'workers_seen':
        return this.#keys.workersSeen;
      case 'schedules':
        return this.#keys.schedules;
      case 'backfills':
        return this.#keys.backfills;
      case 'backfills_started':
        return this.#keys.backfillsStarted;
      case 'steps':
      case 'lease':
      case 'rate':
      case 'rate_tail':
        throw new Error(`Lua script ${script.name}: key ${label} must be passed by the caller`);
    }
  }
}
