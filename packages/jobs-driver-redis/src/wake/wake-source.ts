import { parseSettledMessage, type SettledJobs, type WakeSource } from '@x/jobs-core/driver';
import { Redis } from 'ioredis';
import type { RedisClient } from '../redis-client.js';

/** The furthest ahead a wake for later work arms a timer. */
const MAX_TIMER_MS = 86_400_000;

/** Parses a wake message, `<dueAt epoch ms>|<queue>`; null for anything else. */
export function parseWakeMessage(message: string): { readonly queue: string; readonly dueAt: number } | null {
  const bar = message.indexOf('|');
  if (bar <= 0) return null;
  const dueAt = Number(message.slice(0, bar));
  return Number.isFinite(dueAt) ? { queue: message.slice(bar + 1), dueAt } : null;
}

/**
 * The driver's push wake: every script that makes work due (enqueue, a nack back to ready, a
 * resume, a promote, an event that wakes waiters) publishes `<dueAt>|<queue>` on the prefix's wake
 * channel. One dedicated subscriber connection per driver, opened on the first `subscribe`, calls
 * the listeners at once for due work and arms a timer for work due later (a delayed enqueue, a
 * retry backoff). After the subscriber reconnects, every queue it has heard of is woken (messages
 * published while it was away are lost). Delivery stays a hint: workers still poll slowly.
 *
 * The settle wake rides on the same connection: the first `subscribeSettled` subscribes it to
 * `<prefix>settled` too (a worker that never awaits a result never receives settle messages), where
 * the ack, dead-letter and cancel scripts publish the settled ids (`settle-wake.lua`).
 */
export class RedisWakeSource implements WakeSource {
  readonly #client: RedisClient;
  readonly #channel: string;
  readonly #settledChannel: string;
  readonly #now: () => number;
  readonly #listeners = new Set<(queue: string) => void>();
  readonly #timers = new Map<string, { readonly at: number; readonly timer: NodeJS.Timeout }>();
  readonly #heard = new Set<string>();
  readonly #settleListeners = new Set<(jobs: SettledJobs) => void>();
  #subscriber: RedisClient | null = null;
  #closed = false;

  constructor(
    client: RedisClient,
    channel: string,
    now: () => number,
    settledChannel = `${channel}:settled`,
  ) {
    this.#client = client;
    this.#channel = channel;
    this.#settledChannel = settledChannel;
    this.#now = now;
  }

  /** Adds a listener (opening the subscriber connection on the first); answers its unsubscribe. */
  subscribe(listener: (queue: string) => void): () => void {
    if (this.#closed) return () => {};
    this.#listeners.add(listener);
    this.#open();
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Adds a settle listener (subscribing the connection to the settle channel on the first). */
  subscribeSettled(listener: (jobs: SettledJobs) => void): () => void {
    if (this.#closed) return () => {};
    const entry = (jobs: SettledJobs): void => listener(jobs);
    const first = this.#settleListeners.size === 0;
    this.#settleListeners.add(entry);
    this.#open();
    if (first) this.#subscriber?.subscribe(this.#settledChannel).catch(() => {});
    return () => {
      this.#settleListeners.delete(entry);
    };
  }

  /** Stops the subscriber connection and every pending timer. Safe to call twice. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.#settleListeners.clear();
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    const subscriber = this.#subscriber;
    this.#subscriber = null;
    if (subscriber !== null) {
      if (subscriber.status === 'ready') await subscriber.quit().catch(() => subscriber.disconnect());
      else subscriber.disconnect();
    }
  }

  #open(): void {
    if (this.#subscriber !== null) return;
    const subscriber =
      this.#client instanceof Redis
        ? this.#client.duplicate({
            enableOfflineQueue: true,
            enableAutoPipelining: false,
            connectionName: 'x-jobs-wake',
          })
        : this.#client.duplicate();
    this.#subscriber = subscriber;
    subscriber.on('error', () => {});
    let readyBefore = false;
    subscriber.on('ready', () => {
      // ioredis resubscribes on reconnect; subscribing again is idempotent and covers the first ready.
      subscriber.subscribe(this.#channel).catch(() => {});
      if (this.#settleListeners.size > 0) subscriber.subscribe(this.#settledChannel).catch(() => {});
      if (readyBefore) for (const queue of this.#heard) this.#emit(queue);
      readyBefore = true;
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.#settledChannel) {
        this.#emitSettled(parseSettledMessage(message));
        return;
      }
      if (channel !== this.#channel) return;
      const wake = parseWakeMessage(message);
      if (wake !== null) this.#schedule(wake.queue, wake.dueAt);
    });
  }

  #schedule(queue: string, dueAt: number): void {
    this.#heard.add(queue);
    const delay = dueAt - this.#now();
    if (delay <= 0) {
      this.#emit(queue);
      return;
    }
    // Work due in more than a day is left to the workers' poll (timers past ~24.8 days misfire).
    if (delay > MAX_TIMER_MS) return;
    const pending = this.#timers.get(queue);
    if (pending !== undefined && pending.at <= dueAt) return;
    if (pending !== undefined) clearTimeout(pending.timer);
    // Two ms late on purpose: both clocks floor to the ms, so the work is surely due when heard.
    const timer = setTimeout(() => {
      this.#timers.delete(queue);
      this.#emit(queue);
    }, delay + 2);
    timer.unref();
    this.#timers.set(queue, { at: dueAt, timer });
  }

  #emit(queue: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(queue);
      } catch {
        // A listener's failure is its own; the others still hear the wake.
      }
    }
  }

  #emitSettled(jobs: SettledJobs): void {
    for (const listener of this.#settleListeners) {
      try {
        listener(jobs);
      } catch {
        // A listener's failure is its own; the others still hear the settle.
      }
    }
  }
}
