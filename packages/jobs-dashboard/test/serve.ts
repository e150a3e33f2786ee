import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDashboard, type DashboardOptions, toNodeListener } from '../src/index.js';

/** A dashboard served by Node's `http` on a free loopback port. */
export interface ServedDashboard {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Serves `createDashboard(options)` through `toNodeListener` on 127.0.0.1. */
export async function serveDashboard(options: DashboardOptions): Promise<ServedDashboard> {
  const server = createServer(toNodeListener(createDashboard(options)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.basePath?.replace(/\/+$/, '') ?? ''}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
