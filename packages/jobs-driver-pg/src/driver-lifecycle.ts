import { classifyPgError } from './classify-pg-error.js';
import { closedError } from './driver-context.js';

/**
 * Start once, refuse after close, and let calls already made finish before the connections go:
 * `ready()` runs the start (migrations, clock sample) once and retries it after a failure;
 * `track()` refuses with `X_DRIVER_CLOSED` once closing began and remembers the call until it
 * settles; `close()` waits for those, then releases.
 */
export class DriverLifecycle {
  readonly #start: () => Promise<void>;
  readonly #release: () => Promise<void>;
  readonly #inFlight = new Set<Promise<unknown>>();
  #started = false;
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(start: () => Promise<void>, release: () => Promise<void>) {
    this.#start = start;
    this.#release = release;
  }

  /** True once `close()` was called. */
  get closing(): boolean {
    return this.#closing !== undefined;
  }

  /** Resolves once the driver has started; a failed start is retried by the next call. */
  ready(): Promise<void> {
    if (this.#started) return Promise.resolve();
    this.#starting ??= this.#start().then(
      () => {
        this.#started = true;
      },
      (error: unknown) => {
        this.#starting = undefined;
        throw classifyPgError(error);
      },
    );
    return this.#starting;
  }

  /** Runs one public call: refused after close, awaited by close. */
  track<T>(call: () => Promise<T>): Promise<T> {
    if (this.#closing !== undefined) return Promise.reject(closedError());
    const running = call();
    this.#inFlight.add(running);
    const forget = (): void => {
      this.#inFlight.delete(running);
    };
    running.then(forget, forget);
    return running;
  }

  /** Refuses new calls, waits for the ones in flight, then releases. Safe to call twice. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled([...this.#inFlight]);
      await this.#release();
    })();
    return this.#closing;
  }
}

/**
 * Wraps every method of `target` in `lifecycle.track`, so a store handed out by the driver
 * refuses after close like the driver itself.
 */
export function tracked<T extends object>(target: T, lifecycle: DriverLifecycle): T {
  const wrapped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(target)) {
    wrapped[key] =
      typeof value === 'function'
        ? (...args: unknown[]) =>
            lifecycle.track(() => (value as (...a: unknown[]) => Promise<unknown>)(...args))
        : value;
  }
  return wrapped as T;
}
