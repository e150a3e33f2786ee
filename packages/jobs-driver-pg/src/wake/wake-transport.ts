/** How queue wake-ups and settle wakes reach this process: a LISTEN session on Postgres, PGlite's in-process listen. */
export interface WakeTransport {
  /**
   * Starts delivering the queue names notified on the driver's channel to `emit`. Resolves once
   * the first attempt to listen finished (listening, or failed and retrying in the background).
   */
  start(emit: (queue: string) => void): Promise<void>;
  /**
   * From now on also delivers the payloads notified on the settle channel to `emit` (the first
   * call LISTENs there, and the session listens again after each reconnect). A session that never
   * calls it never receives settle notifications: a worker that awaits no result pays nothing.
   */
  listenSettled(emit: (payload: string) => void): void;
  /** Stops listening and releases the session. */
  stop(): Promise<void>;
}
