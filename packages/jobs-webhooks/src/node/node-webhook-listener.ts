import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookRequestHandler } from '../inbound/receiver-handler.js';
import { toWebRequest } from './node-request.js';

/** A Node `http` request listener: `http.createServer(listener)` or a route of an existing server. */
export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Adapts a web-standard handler (`webhookHandler(receiver)`) to Node's `http` module. The body is
 * streamed to the handler on demand; when the handler stops reading early (a 413), the response
 * carries `connection: close` and the socket is destroyed once it is sent, so the unread rest is
 * never received into memory. A handler that throws answers 500 with no detail.
 */
export function nodeWebhookListener(handler: WebhookRequestHandler): NodeRequestListener {
  return (req, res) => {
    const bridge = toWebRequest(req);
    void handler(bridge.request)
      .then(async (response) => {
        const payload = Buffer.from(await response.arrayBuffer());
        const abandoned = bridge.bodyAbandoned();
        const headers: Record<string, string> = Object.fromEntries(response.headers);
        if (abandoned) headers.connection = 'close';
        res.writeHead(response.status, headers);
        res.end(payload, () => {
          if (abandoned) req.socket.destroy();
        });
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', connection: 'close' });
        res.end('{"error":"X_WEBHOOK_RECEIVER_FAILED"}');
      });
  };
}
