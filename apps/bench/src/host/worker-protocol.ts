/** Messages between a host and the worker processes it forks (W3 multi-process, fleet). */

/** Host → worker process. */
export type ToWorkerProcess = { readonly kind: 'go' } | { readonly kind: 'stop' };

/** Worker process → host. */
export type FromWorkerProcess =
  /** Connected and set up; waits for `go` to start its worker. */
  | { readonly kind: 'ready' }
  /**
   * Jobs run since the last message (ids only when not logging to a file), the epoch ms of the
   * process's first job start and of its latest one.
   */
  | {
      readonly kind: 'progress';
      readonly count: number;
      readonly ids: readonly number[];
      readonly firstAt: number;
      readonly lastAt: number;
    }
  /** The worker stopped cleanly after a `stop`. */
  | { readonly kind: 'stopped' }
  | { readonly kind: 'failed'; readonly error: string };
