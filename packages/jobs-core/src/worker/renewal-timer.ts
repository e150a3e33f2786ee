/** What a renewal loop reports. Every callback fires only while the loop is running: never after `stop()`. */
export interface RenewalHandlers {
  /** Renews once. true: landed. false: refused (the holder lost the row or slot). Throws: failed. */
  renew(): Promise<boolean>;
  /** One renewal threw; the window may still have room. */
  onFailed(error: unknown): void;
  /** A whole window passed with no renewal landing: reported once. */
  onLost(): void;
  /** A renewal answered false: the loop stops itself. */
  onRefused(): void;
}

/** A running renewal loop. */
export interface RenewalTimer {
  /**
   * Stops the loop. Terminal for a renewal already in flight too: its answer is ignored, so a job
   * that just finished never reports a lost lease.
   */
  stop(): void;
}

/**
 * Renews every `intervalMs` for as long as it runs, measuring the window from the last renewal that
 * landed on this process's monotonic clock, so a renewal that hangs is caught like one that throws.
 * At most one renewal is in flight at a time.
 */
export function startRenewalTimer(
  intervalMs: number,
  windowMs: number,
  handlers: RenewalHandlers,
): RenewalTimer {
  let stopped = false;
  let inFlight = false;
  let lostReported = false;
  let lastLanded = performance.now();

  const tick = () => {
    if (stopped) return;
    if (!lostReported && performance.now() - lastLanded >= windowMs) {
      lostReported = true;
      handlers.onLost();
    }
    if (inFlight) return;
    inFlight = true;
    handlers.renew().then(
      (landed) => {
        inFlight = false;
        if (stopped) return;
        if (landed) {
          lastLanded = performance.now();
          return;
        }
        stopped = true;
        clearInterval(timer);
        handlers.onRefused();
      },
      (error: unknown) => {
        inFlight = false;
        if (stopped) return;
        handlers.onFailed(error);
        if (!lostReported && performance.now() - lastLanded >= windowMs) {
          lostReported = true;
          handlers.onLost();
        }
      },
    );
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref?.();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
