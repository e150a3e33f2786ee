import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JobDriver } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueRow } from '../../test/memory-rows.js';
import { createDashboard } from './create-dashboard.js';
import { toNodeMiddleware } from './node-adapter.js';

const TOKEN = 'middleware-token-0123456789';

describe('toNodeMiddleware (a Connect-style app on node:http)', () => {
  let driver: JobDriver;
  let server: Server;
  let origin: string;
  beforeEach(async () => {
    driver = memoryJobDriver();
    const middleware = toNodeMiddleware(createDashboard({ driver, token: TOKEN, basePath: '/admin/jobs' }));
    server = createServer((req, res) =>
      middleware(req, res, () => {
        res.statusCode = 200;
        res.end('the app');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await driver.close?.();
  });

  it('answers under its base path, hands everything else to next()', async () => {
    expect(await (await fetch(`${origin}/elsewhere`)).text()).toBe('the app');
    expect(await (await fetch(`${origin}/admin/jobsx`)).text()).toBe('the app');
    expect((await fetch(`${origin}/admin/jobs/`)).status).toBe(401);
  });

  it('keeps the cookie it sets, and reads a form body posted through Node', async () => {
    const queue = `q-${randomUUID()}`;
    const id = await enqueueRow(driver, { name: 'send', queue });
    const visit = await fetch(`${origin}/admin/jobs/?token=${TOKEN}`, { redirect: 'manual' });
    expect(visit.status).toBe(303);
    const cookie = (visit.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const page = await (await fetch(`${origin}/admin/jobs/jobs/${id}`, { headers: { cookie } })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const posted = await fetch(`${origin}/admin/jobs/jobs/${id}/cancel`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, reason: 'by hand', return: `/jobs/${id}` }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/admin/jobs/jobs/${id}`);
    expect(await driver.introspect?.get(id)).toMatchObject({ state: 'cancelled', cancelReason: 'by hand' });
  });
});
