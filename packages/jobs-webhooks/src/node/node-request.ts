import type { IncomingMessage } from 'node:http';

/** A web `Request` over a Node request, and whether its body was left unread. */
export interface NodeRequestBridge {
  readonly request: Request;
  /** True when the handler cancelled the body before its end (a 413): the connection must close. */
  bodyAbandoned(): boolean;
}

/**
 * Wraps a Node `IncomingMessage` as a web `Request` whose body pulls from the socket on demand
 * (the request is paused between reads), so a handler that stops reading leaves the rest in the
 * kernel instead of buffering it.
 */
export function toWebRequest(req: IncomingMessage): NodeRequestBridge {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const host = headers.get('host') ?? '127.0.0.1';
  const url = new URL(req.url ?? '/', `http://${host}`);
  let ended = false;
  let cancelled = false;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const body = hasBody
    ? new ReadableStream<Uint8Array>(
        {
          start(controller) {
            req.pause();
            req.on('data', (chunk: Buffer) => {
              if (cancelled) return;
              controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
              if ((controller.desiredSize ?? 0) <= 0) req.pause();
            });
            req.on('end', () => {
              ended = true;
              if (!cancelled) controller.close();
            });
            req.on('error', (error) => {
              if (!cancelled) controller.error(error);
            });
          },
          pull() {
            req.resume();
          },
          cancel() {
            cancelled = true;
            req.pause();
          },
        },
        { highWaterMark: 1 },
      )
    : null;
  const request = new Request(url, {
    method: req.method ?? 'GET',
    headers,
    body,
    ...(body === null ? {} : { duplex: 'half' }),
  } as RequestInit);
  return { request, bodyAbandoned: () => hasBody && !ended };
}
