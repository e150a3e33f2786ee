/** How queue wake-ups reach this process: a LISTEN session on Postgres, PGlite's in-process listen. */
export interface WakeTransport {
  /** Starts delivering the queue names notified on the driver's channel to `emit`. */
  start(emit: (queue: string) => void): void;
  /** Stops listening and releases the session. */
  stop(): Promise<void>;
}
