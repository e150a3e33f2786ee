import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DashboardHandler } from './create-dashboard.js';
import { MAX_BODY_BYTES } from './form-fields.js';

/** A Node `http` request listener: `http.createServer(toNodeListener(dashboard))`. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Express/Fastify(middie)/Connect-style middleware: `app.use(toNodeMiddleware(dashboard))`. */
export type NodeMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** The path and query a Node request asked for; Express's mount point included (`originalUrl`). */
function requestTarget(req: IncomingMessage): string {
  return (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
}

async function readBody(req: IncomingMessage): Promise<Uint8Array | null> {
  if (req.method === 'GET' || req.method === 'HEAD') return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    // One byte past the limit is enough for the handler to refuse it.
    if (size > MAX_BODY_BYTES + 1) break;
    chunks.push(buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** The web-standard `Request` for a Node request. The origin comes from the socket and `Host`. */
export async function toWebRequest(req: IncomingMessage): Promise<Request> {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const host = req.headers.host ?? '127.0.0.1';
  const url = new URL(requestTarget(req), `${encrypted ? 'https' : 'http'}://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const body = await readBody(req);
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    ...(body === null ? {} : { body }),
  });
}

/** Writes a web `Response` to a Node response (every `Set-Cookie` kept separate). */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.end(response.body === null ? undefined : Buffer.from(await response.arrayBuffer()));
}

function serve(handler: DashboardHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return toWebRequest(req)
    .then((request) => handler(request))
    .then((response) => writeWebResponse(response, res));
}

/** The dashboard as a Node `http` listener. A failure to answer closes the response with a 500. */
export function toNodeListener(handler: DashboardHandler): NodeListener {
  return (req, res) => {
    serve(handler, req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  };
}

/**
 * The dashboard as `(req, res, next)` middleware: requests under its base path are answered,
 * every other one goes to `next()`. Mount it at the app's root with the same `basePath` the
 * dashboard was created with (`app.use(toNodeMiddleware(createDashboard({ basePath: '/jobs', … })))`);
 * Express's `app.use('/jobs', …)` works too, since `originalUrl` keeps the mount path.
 */
export function toNodeMiddleware(handler: DashboardHandler): NodeMiddleware {
  return (req, res, next) => {
    const pathname = new URL(requestTarget(req), 'http://x').pathname;
    if (!handler.handles(pathname)) {
      next();
      return;
    }
    serve(handler, req, res).catch(next);
  };
}
