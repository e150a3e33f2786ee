import { randomUUID } from 'node:crypto';
import { attemptFailureOf, type JobDriver } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueRow, killRow } from '../../test/memory-rows.js';
import type { ShowJson } from '../read/job-detail-view.js';
import type { LsJson } from '../read/queue-view.js';
import { CSRF_HEADER, SESSION_COOKIE } from './access.js';
import { createDashboard } from './create-dashboard.js';

const ORIGIN = 'http://127.0.0.1:4600';
const TOKEN = 'test-token-0123456789abcdef';

function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, { headers });
}

function post(path: string, body: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });
}

/** The CSRF token a page carries in its forms. */
async function csrfOf(response: Response): Promise<string> {
  const match = /name="_csrf" value="([^"]+)"/.exec(await response.text());
  if (match?.[1] === undefined) throw new Error('the page has no form with a CSRF token');
  return match[1];
}

describe('createDashboard (memory driver)', () => {
  let driver: JobDriver;
  let queue: string;
  beforeEach(() => {
    driver = memoryJobDriver();
    queue = `q-${randomUUID()}`;
  });
  afterEach(() => driver.close?.());

  it('serves the queues page and its JSON with the strict CSP and no inline script', async () => {
    await enqueueRow(driver, { name: 'send', queue });
    const dashboard = createDashboard({ driver });
    const page = await dashboard(get('/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const text = await page.text();
    expect(text).toContain(`data-queue="${queue}"`);
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(text).not.toContain('style=');
    const api = await dashboard(get('/api/queues'));
    const data = (await api.json()) as LsJson;
    expect(data.queues.find((row) => row.queue === queue)?.counts.ready).toBe(1);
  });

  it('escapes names, keys, errors and payloads: a <script> job renders as text', async () => {
    const evil = '<script>alert(1)</script>';
    const id = await enqueueRow(driver, {
      name: evil,
      queue,
      idempotencyKey: `"><img src=x onerror=alert(2)>`,
      payload: { note: evil, password: 'hunter2' },
    });
    await killRow(driver, queue, { code: 'X_<b>', message: evil });
    const dashboard = createDashboard({ driver });
    for (const path of ['/jobs', `/jobs/${id}`, '/dead', '/']) {
      const text = await (await dashboard(get(path))).text();
      expect(text, path).not.toContain('<script>alert');
      expect(text, path).not.toContain('<img src=x');
      expect(text, path).not.toContain('<b>');
    }
    const detail = await (await dashboard(get(`/jobs/${id}`))).text();
    expect(detail).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(detail).not.toContain('hunter2');
    const json = (await (await dashboard(get(`/api/jobs/${id}`))).json()) as ShowJson;
    expect(json.job.payload).toEqual({ note: evil, password: '[redacted]' });
    expect(json.job.stopped).toContain('one attempt failed');
  });

  it("lists every failed attempt's error with its stack collapsed, escaped and redacted", async () => {
    const evil = '<script>alert(1)</script>';
    const id = await enqueueRow(driver, { name: 'charge-card', queue });
    const error = new Error(`upstream returned 500 ${evil}`, { cause: new TypeError('socket hang up') });
    error.stack = `Error: upstream returned 500 password=hunter2 iban=DE00\n    at charge (card.js:1:1)`;
    const failure = attemptFailureOf(error, { attempt: 1, step: 'charge' });
    await killRow(driver, queue, { code: 'ERROR', message: error.message }, failure);
    const dashboard = createDashboard({ driver, redactKeys: ['iban'] });
    const page = await (await dashboard(get(`/jobs/${id}`))).text();
    const list = page.slice(page.indexOf('<h2>Failed attempts</h2>'));
    expect(list).toContain('<li data-attempt="1">');
    expect(list).toContain('<code data-field="step">charge</code>');
    expect(list).toContain('<details><summary>stack</summary><pre class="stack">');
    expect(list, 'collapsed by default').not.toContain('<details open');
    expect(list).toContain('    at charge (card.js:1:1)\nCaused by: TypeError: socket hang up');
    expect(list).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(list).not.toContain('<script>alert');
    expect(list).toContain('password=[redacted] iban=[redacted]');
    expect(page).not.toContain('hunter2');
    const json = (await (await dashboard(get(`/api/jobs/${id}`))).json()) as ShowJson;
    expect(json.job.errors).toMatchObject([
      { attempt: 1, name: 'Error', code: 'ERROR', step: 'charge', causes: [{ name: 'TypeError' }] },
    ]);
    expect(json.job.errors[0]?.stack).toContain('iban=[redacted]');
  });

  it('refuses every mutation without a token or hook, and in read-only mode', async () => {
    const id = await enqueueRow(driver, { name: 'send', queue });
    const open = createDashboard({ driver });
    const refused = await open(post(`/jobs/${id}/cancel`, {}, { accept: 'application/json' }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'X_DASHBOARD_WRITE_DISABLED' } });
    expect(await (await open(get('/'))).text()).toContain('data-read-only');

    const readOnly = createDashboard({ driver, token: TOKEN, readOnly: true });
    const alsoRefused = await readOnly(
      post(`/jobs/${id}/cancel`, {}, { accept: 'application/json', authorization: `Bearer ${TOKEN}` }),
    );
    expect(((await alsoRefused.json()) as { error: { code: string } }).error.code).toBe(
      'X_DASHBOARD_WRITE_DISABLED',
    );
    expect((await driver.introspect?.get(id))?.state).toBe('ready');
  });

  it('with a token: reads need it, ?token= sets a strict cookie, a bearer header may POST', async () => {
    const id = await enqueueRow(driver, { name: 'send', queue });
    await killRow(driver, queue);
    const dashboard = createDashboard({ driver, token: TOKEN, basePath: '/admin/jobs/' });
    expect((await dashboard(get('/admin/jobs/api/queues'))).status).toBe(401);
    expect((await dashboard(get('/admin/jobs/?token=wrong-token-0123456789'))).status).toBe(401);
    const visit = await dashboard(get(`/admin/jobs/dead?token=${TOKEN}`));
    expect(visit.status).toBe(303);
    expect(visit.headers.get('location')).toBe('/admin/jobs/dead');
    const cookie = visit.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect(cookie).toContain('Path=/admin/jobs');
    const session = cookie.split(';')[0] ?? '';
    expect(session.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
    expect((await dashboard(get('/admin/jobs/api/queues', { cookie: session }))).status).toBe(200);

    const retried = await dashboard(
      post(`/admin/jobs/api/jobs/${id}/retry`, {}, { authorization: `Bearer ${TOKEN}` }),
    );
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ id, action: 'retry', previousState: 'dead' });
    expect((await driver.introspect?.get(id))?.state).toBe('ready');
    const again = await dashboard(
      post(`/admin/jobs/api/jobs/${id}/retry`, {}, { authorization: `Bearer ${TOKEN}` }),
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'X_DASHBOARD_ACTION_REFUSED' } });
  });

  it('refuses cookie mutations from another origin or without the CSRF token, accepts the page’s own', async () => {
    const id = await enqueueRow(driver, { name: 'send', queue });
    const dashboard = createDashboard({ driver, token: TOKEN });
    const cookie = `${SESSION_COOKIE}=${TOKEN}`;
    const csrf = await csrfOf(await dashboard(get(`/jobs/${id}`, { cookie })));
    const crossSite = await dashboard(
      post(
        `/jobs/${id}/cancel`,
        { _csrf: csrf },
        { cookie, origin: 'https://evil.example', accept: 'application/json' },
      ),
    );
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: { code: 'X_DASHBOARD_CROSS_SITE' } });
    const fetchSite = await dashboard(
      post(
        `/jobs/${id}/cancel`,
        { _csrf: csrf },
        { cookie, 'sec-fetch-site': 'cross-site', accept: 'application/json' },
      ),
    );
    expect(fetchSite.status).toBe(403);
    const noToken = await dashboard(
      post(`/jobs/${id}/cancel`, {}, { cookie, origin: ORIGIN, accept: 'application/json' }),
    );
    expect(await noToken.json()).toMatchObject({ error: { code: 'X_DASHBOARD_CROSS_SITE' } });
    expect((await driver.introspect?.get(id))?.state).toBe('ready');

    const form = await dashboard(
      post(`/jobs/${id}/cancel`, { _csrf: csrf, return: `/jobs/${id}` }, { cookie, origin: ORIGIN }),
    );
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(`/jobs/${id}`);
    expect((await driver.introspect?.get(id))?.state).toBe('cancelled');
    const header = await dashboard(
      post(
        `/jobs/${id}/remove`,
        {},
        { cookie, origin: ORIGIN, [CSRF_HEADER]: csrf, accept: 'application/json' },
      ),
    );
    expect(header.status).toBe(200);
    expect(await driver.introspect?.get(id)).toBeNull();
  });

  it('asks the authorize hook with the access and action, and answers GET-only paths with 405', async () => {
    const asked: string[] = [];
    const dashboard = createDashboard({
      driver,
      authorize: (request, context) => {
        asked.push(`${context.access}:${context.action ?? '-'}`);
        return request.headers.get('x-user') === 'ops';
      },
    });
    expect((await dashboard(get('/workers'))).status).toBe(401);
    expect((await dashboard(get('/workers', { 'x-user': 'ops' }))).status).toBe(200);
    const paused = await dashboard(
      post(
        `/queues/${queue}/pause`,
        {},
        { 'x-user': 'ops', origin: 'https://evil.example', accept: 'application/json' },
      ),
    );
    expect(paused.status).toBe(403);
    expect(asked).toEqual(['read:-', 'read:-', 'write:pause']);
    expect(await driver.introspect?.pausedQueues()).toEqual([]);
    const put = await dashboard(
      new Request(`${ORIGIN}/jobs`, { method: 'PUT', headers: { accept: 'application/json' } }),
    );
    expect(put.status).toBe(405);
    expect((await dashboard(get('/nowhere', { 'x-user': 'ops' }))).status).toBe(404);
  });

  it('filters jobs by queue, state, name and tenant, newest first, a page at a time', async () => {
    for (let i = 0; i < 5; i += 1) {
      await enqueueRow(driver, {
        name: i % 2 === 0 ? 'even' : 'odd',
        queue,
        tenantId: i < 3 ? 'acme' : 'globex',
      });
    }
    const dashboard = createDashboard({ driver });
    const page = async (query: string) =>
      (await (await dashboard(get(`/api/jobs?queue=${queue}&${query}`))).json()) as {
        jobs: { name: string; tenantId: string }[];
        nextCursor: string | null;
      };
    expect((await page('name=even')).jobs).toHaveLength(3);
    expect((await page('tenant=globex')).jobs.map((job) => job.tenantId)).toEqual(['globex', 'globex']);
    const first = await page('limit=2');
    expect(first.jobs).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(`limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`);
    expect(second.jobs).toHaveLength(2);
    const bad = await dashboard(get('/api/jobs?state=zombie'));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'X_DASHBOARD_BAD_REQUEST' } });
  });

  it('lists live workers and cron tasks with next fire times in their zones', async () => {
    const now = driver.now();
    await driver.introspect?.reportWorker(
      {
        id: 'w-1',
        queues: [queue],
        concurrency: 4,
        inFlight: 1,
        host: 'web-<1>',
        pid: 42,
        startedAt: now,
        lastSeenAt: now,
      },
      60_000,
    );
    const task = {
      describe: () => ({ name: 'nightly', cron: '0 3 * * *', tz: 'America/Bogota', jobs: ['send'] }),
    };
    const dashboard = createDashboard({
      driver,
      tasks: {
        handles: [task],
        nextOccurrences: (_task, n, from) =>
          [new Date(Math.ceil(from / 86_400_000) * 86_400_000 + 8 * 3_600_000)].slice(0, n),
      },
    });
    const workers = await (await dashboard(get('/workers'))).text();
    expect(workers).toContain('web-&lt;1&gt;');
    expect(workers).toContain('1/4');
    const tasks = (await (await dashboard(get('/api/tasks'))).json()) as {
      tasks: { name: string; next: { local: string }[]; paused: boolean }[];
    };
    expect(tasks.tasks).toMatchObject([{ name: 'nightly', paused: false }]);
    expect(tasks.tasks[0]?.next[0]?.local).toMatch(/ 03:00 GMT-5$/);
    expect(await (await dashboard(get('/tasks'))).text()).toContain('America/Bogota');
    expect(await (await createDashboard({ driver })(get('/tasks'))).text()).toContain('No tasks were given');
  });
});
