import { createServer } from 'node:http';
import { healthHandler, type Worker } from '@x/jobs-core';
import { cliError } from '../errors.js';

/**
 * Serves `worker`'s probes (`GET /livez`, `GET /readyz`: 200 or 503 with the health as JSON) on
 * `port`, every interface (a kubelet probes the pod's address). Answers the stop that closes it.
 * A port that cannot be listened on is `X_CLI_HEALTH_LISTEN_FAILED`.
 */
export async function serveHealth(worker: Worker, port: number): Promise<() => Promise<void>> {
  const server = createServer(healthHandler(worker));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        cliError(
          'X_CLI_HEALTH_LISTEN_FAILED',
          `--health-port ${port}: cannot listen (${error.message}).`,
          { port },
          error,
        ),
      ),
    );
    server.listen(port, () => resolve());
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}
