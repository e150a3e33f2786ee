/** How often a running {@link BackendClock} measures again: bounds the drift between the clocks. */
export const BACKEND_CLOCK_RESYNC_MS = 30_000;

/**
 * How far this host's wall clock may move against its monotonic clock before `now()` measures
 * again at once: a step (NTP correction, `date -s`) or a suspend (the monotonic clock paused while
 * the wall clock ran on). Slewing moves them apart by at most 0.5 ms/s, far below this.
 */
export const WALL_STEP_TOLERANCE_MS = 250;

/** After a failed measurement, a detected step measures again no sooner than this. */
const RETRY_AFTER_FAILURE_MS = 1_000;

/** One read of the backend's clock (epoch ms), between two readings of `performance.now()`. */
export interface ClockSample {
  /** `performance.now()` as the read was sent. */
  readonly sent: number;
  /** What the backend's clock read, epoch ms (floored to the ms). */
  readonly server: number;
  /** `performance.now()` as the answer arrived. */
  readonly received: number;
}

/**
 * The offset backend clock − `performance.now()` that every sample allows: the backend read its
 * clock between send and receive, so each sample bounds it to `[server − received − 1,
 * server − sent + 1]` (1 ms for the backend's flooring). The bounds are intersected and `preferred`
 * (this host's wall clock, `Date.now() − performance.now()`) is kept when it lies inside them, else
 * the nearest bound — so a host whose wall clock agrees with the backend reads exactly its wall
 * clock, and one that is off reads the backend's. Disjoint bounds (the backend's clock stepped
 * mid-measurement) take the last sample's midpoint. No samples: `preferred`.
 */
export function offsetFromSamples(samples: readonly ClockSample[], preferred: number): number {
  if (samples.length === 0) return preferred;
  let low = Number.NEGATIVE_INFINITY;
  let high = Number.POSITIVE_INFINITY;
  for (const { sent, server, received } of samples) {
    low = Math.max(low, server - received - 1);
    high = Math.min(high, server - sent + 1);
  }
  if (low > high) {
    const last = samples[samples.length - 1] as ClockSample;
    return last.server - (last.sent + last.received) / 2;
  }
  return Math.min(Math.max(preferred, low), high);
}

/** What a {@link BackendClock} reads and how often. */
export interface BackendClockOptions {
  /** One read of the backend's clock in epoch ms (`clock_timestamp()`, `TIME`). */
  readonly read: () => Promise<number>;
  /** Reads per measurement; their bounds are intersected. (Default: 3) */
  readonly samples?: number;
  /** How often {@link BackendClock.start} measures again. (Default: {@link BACKEND_CLOCK_RESYNC_MS}) */
  readonly resyncMs?: number;
}

/**
 * A driver's `now()`: the backend's clock read without a round trip, so the due times core
 * computes (`now + delay`) line up with the clock every statement or script compares against.
 *
 * It is anchored on this process's **monotonic** clock (`performance.now()`), never on the wall
 * clock: a measurement records backend time − monotonic time, and `now()` adds the monotonic time
 * to it. A step of the host's wall clock (NTP, `date -s`, ±10 min) therefore moves no due time.
 * What the monotonic clock cannot see — a host suspend, or a slow drift — is bounded: every
 * `now()` compares the wall clock with the monotonic one and measures again at once when they
 * moved apart by more than {@link WALL_STEP_TOLERANCE_MS}, and a started clock measures every
 * `resyncMs`. Until the first measurement it answers the wall clock. A failed measurement keeps
 * the previous one.
 */
export class BackendClock {
  readonly #read: () => Promise<number>;
  readonly #samples: number;
  readonly #resyncMs: number;
  /** Backend epoch ms − `performance.now()`, once measured. */
  #offset: number | undefined;
  /** `Date.now() − performance.now()` when it was measured: a move of it is a wall-clock step. */
  #wallOffset = 0;
  #syncing: Promise<void> | undefined;
  #failedAt = Number.NEGATIVE_INFINITY;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: BackendClockOptions) {
    this.#read = options.read;
    this.#samples = options.samples ?? 3;
    this.#resyncMs = options.resyncMs ?? BACKEND_CLOCK_RESYNC_MS;
  }

  /** Epoch ms on the backend's clock (whole ms; the wall clock until the first measurement). */
  now(): number {
    const mono = performance.now();
    const offset = this.#offset;
    if (offset === undefined) return Date.now();
    if (
      Math.abs(Date.now() - mono - this.#wallOffset) > WALL_STEP_TOLERANCE_MS &&
      mono - this.#failedAt >= RETRY_AFTER_FAILURE_MS
    ) {
      this.sync().catch(ignore);
    }
    return Math.floor(mono + offset);
  }

  /** Backend clock − this host's wall clock, in ms, as last measured (0 before). */
  get offsetMs(): number {
    return this.#offset === undefined ? 0 : Math.round(this.#offset - this.#wallOffset);
  }

  /**
   * Measures the offset now (joins a measurement in flight). Rejects with the read's error when a
   * read fails; the previous measurement is kept.
   */
  sync(): Promise<void> {
    this.#syncing ??= this.#measure().finally(() => {
      this.#syncing = undefined;
    });
    return this.#syncing;
  }

  /** Measures again every `resyncMs` until {@link stop} (the timer does not hold the process). */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.sync().catch(ignore), this.#resyncMs);
    this.#timer.unref?.();
  }

  /** Stops the periodic measurement. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #measure(): Promise<void> {
    const samples: ClockSample[] = [];
    try {
      for (let i = 0; i < this.#samples; i += 1) {
        const sent = performance.now();
        const server = await this.#read();
        const received = performance.now();
        if (!Number.isFinite(server)) throw new Error('the backend answered no time');
        samples.push({ sent, server, received });
      }
    } catch (error) {
      this.#failedAt = performance.now();
      throw error;
    }
    const wallOffset = Date.now() - performance.now();
    this.#offset = offsetFromSamples(samples, wallOffset);
    this.#wallOffset = wallOffset;
  }
}

const ignore = (): void => undefined;
