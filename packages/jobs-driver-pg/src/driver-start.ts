import { classifyPgError } from './classify-pg-error.js';

/**
 * The driver's start, run once: `ready()` runs `start` (migrations, clock sample, wake) the first
 * time it is awaited, answers the same promise to every caller meanwhile, and after a failure lets
 * the next call try again (the failure classified, so an unreachable server is `X_DRIVER_UNAVAILABLE`).
 * Refusing calls after close is not its business: core's `refuseAfterClose` wraps the driver.
 */
export class DriverStart {
  readonly #start: () => Promise<void>;
  #started = false;
  #starting: Promise<void> | undefined;

  constructor(start: () => Promise<void>) {
    this.#start = start;
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
}
