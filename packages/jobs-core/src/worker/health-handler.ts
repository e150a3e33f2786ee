import type { WorkerHealth } from './worker-health.js';

/** The request fields the handler reads: any `node:http` `IncomingMessage` has them. */
export interface HealthRequest {
  readonly url?: string | undefined;
  readonly method?: string | undefined;
}

/** The response members the handler calls: any `node:http` `ServerResponse` has them. */
export interface HealthResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

/** Paths of {@link healthHandler}. (Default: `/livez` and `/readyz`, the Kubernetes convention) */
export interface HealthHandlerOptions {
  readonly livePath?: string;
  readonly readyPath?: string;
}

/**
 * A request handler for probes, `node:http` compatible (`http.createServer(healthHandler(worker))`,
 * or mounted in Express/Fastify's raw handler): `GET /livez` answers 200 while `worker.health().live`,
 * else 503; `GET /readyz` answers 200 while `ready`, else 503; both with the health as JSON (no
 * payloads, no secrets). Any other path is 404, any other method 405. Point a liveness probe at
 * `/livez` (a stalled worker is restarted) and a readiness probe at `/readyz` (a worker that cannot
 * reach its backend is taken out of rotation, and not restarted for it).
 */
export function healthHandler(
  worker: { health(): WorkerHealth },
  options: HealthHandlerOptions = {},
): (request: HealthRequest, response: HealthResponse) => void {
  const livePath = options.livePath ?? '/livez';
  const readyPath = options.readyPath ?? '/readyz';
  return (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const probe = path === livePath ? 'live' : path === readyPath ? 'ready' : undefined;
    response.setHeader('content-type', 'application/json');
    response.setHeader('cache-control', 'no-store');
    if (probe === undefined) {
      response.statusCode = 404;
      response.end(JSON.stringify({ error: `no probe at ${path}; use ${livePath} or ${readyPath}` }));
      return;
    }
    if (request.method !== undefined && request.method !== 'GET' && request.method !== 'HEAD') {
      response.statusCode = 405;
      response.end(JSON.stringify({ error: 'probes answer GET and HEAD only' }));
      return;
    }
    const health = worker.health();
    response.statusCode = health[probe] ? 200 : 503;
    response.end(request.method === 'HEAD' ? undefined : JSON.stringify(health));
  };
}
