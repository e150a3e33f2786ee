import type { FromWorkerProcess, ToWorkerProcess } from '../host/worker-protocol.js';

/** What a fleet worker process runs: its worker, started on `go`, and what to release on `stop`. */
export interface WorkerChildPlan {
  /** Starts the worker; answers what stops it. */
  start(): { stop(): Promise<void> };
  /** Releases the driver and logs once the worker stopped. */
  close(): Promise<void>;
}

/**
 * Serves the host protocol in a fleet worker process: `ready` once `open` resolved, `go` starts the
 * worker, `stop` stops it, closes, and exits once the host has `stopped`. A failed `open` is
 * reported as `failed`.
 */
export function serveWorkerChild(open: () => Promise<WorkerChildPlan>): void {
  open()
    .then((plan) => {
      let running: { stop(): Promise<void> } | null = null;
      process.on('message', (message: ToWorkerProcess) => {
        if (message.kind === 'go') {
          running = plan.start();
        } else if (message.kind === 'stop') {
          void (async () => {
            await running?.stop();
            await plan.close();
            process.send?.({ kind: 'stopped' } satisfies FromWorkerProcess, () => process.exit(0));
          })();
        }
      });
      process.send?.({ kind: 'ready' } satisfies FromWorkerProcess);
    })
    .catch((error: unknown) => {
      process.send?.({
        kind: 'failed',
        error: String((error as Error)?.stack ?? error),
      } satisfies FromWorkerProcess);
      process.exitCode = 1;
      process.disconnect?.();
    });
}
