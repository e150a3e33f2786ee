/** How queue wake-ups reach this process: a LISTEN session on Postgres, PGlite's in-process listen. */
export interface WakeTransport {
  /**
   * Starts delivering the queue names notified on the driver's channel to `emit`. Resolves once
   * the first attempt to listen finished (listening, or failed and retrying in the background).
   */
  start(emit: (queue: string) => void): Promise<void>;
  /** Stops listening and releases the session. */
  stop(): Promise<void>;
}
