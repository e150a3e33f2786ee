import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the test receiver answers one request. */
export type Behaviour =
  | { readonly status: number; readonly headers?: Record<string, string> }
  | { readonly hang: true };

/** One request the receiver got, with whether its signature verified under the secret of the moment. */
export interface ReceivedRequest {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly verified: boolean;
}

/**
 * A real HTTP receiver on 127.0.0.1 (port 0): answers each request with the next scripted
 * behaviour (the last one repeats), verifies every signature with the published `standardwebhooks`
 * package, and records what it got. `hang` never answers (until `close`).
 */
export async function testReceiver(script: readonly Behaviour[], secret: () => string) {
  const requests: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        new Webhook(secret()).verify(body, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      requests.push({ headers: req.headers, body, verified });
      const behaviour = script[Math.min(requests.length - 1, script.length - 1)]!;
      if ('hang' in behaviour) {
        hanging.push(res);
        return;
      }
      res.writeHead(behaviour.status, behaviour.headers ?? {});
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
