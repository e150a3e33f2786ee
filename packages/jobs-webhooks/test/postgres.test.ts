import { resetJobDriver, setJobDriver } from '@x/jobs-core';
import { postgresJobDriver } from '@x/jobs-driver-pg';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  memoryWebhookLedger,
  nodeWebhookListener,
  webhook,
  webhookHandler,
  webhookReceiver,
} from '../src/index.js';
import { listen } from './listen.js';
import { postgresFixture, until } from './postgres-fixture.js';
import { testReceiver } from './test-receiver.js';

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
let fixture: Awaited<ReturnType<typeof postgresFixture>>;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  fixture = await postgresFixture('webhooks');
  setJobDriver(fixture.driver);
});
afterAll(async () => {
  resetJobDriver();
  for (const close of closers.reverse()) await close();
  await fixture.drop();
});

describe('webhooks on Postgres with a real worker', () => {
  it('a delivery that fails, is throttled, times out and then succeeds settles done, one ledger row per attempt', async () => {
    const secret = generateWebhookSecret();
    const receiver = await testReceiver(
      [{ status: 502 }, { status: 429, headers: { 'retry-after': '1' } }, { hang: true }, { status: 200 }],
      () => secret,
    );
    closers.push(receiver.close);
    const ledger = memoryWebhookLedger();
    const hook = webhook({
      name: unique('pg.webhooks'),
      queue: unique('q'),
      tenant: 'none',
      endpoint: () => ({ url: receiver.url, secret }),
      event: ({ eventId }) => ({ type: 'order.paid', data: { eventId } }),
      ledger,
      // Room for a loaded CI machine to answer each scripted reply in time; the one hang waits it out.
      timeout: '2s',
      retry: { attempts: 5, backoff: 'fixed', delay: 50, jitter: false },
    });
    await fixture.worker([hook]);
    const { id } = await hook.enqueue({ endpointId: 'ep', eventId: 'evt-pg-1' });
    await until(async () => (await fixture.driver.introspect!.get(id))?.state === 'done');
    expect(ledger.attempts().map((a) => a.status)).toEqual(['failed', 'throttled', 'timeout', 'delivered']);
    const [, throttled, timedOut] = ledger.attempts();
    expect(timedOut!.startedAt - throttled!.startedAt).toBeGreaterThanOrEqual(1_000);
    expect(receiver.requests.every((r) => r.verified)).toBe(true);
    expect((await fixture.driver.introspect!.get(id))?.attempts).toBe(4);
  });

  it('round trip: webhook() delivers to webhookReceiver() behind the Node adapter, which enqueues and handles it once', async () => {
    const secret = generateWebhookSecret();
    const handled: string[] = [];
    const inbound = webhookReceiver({
      name: unique('pg.inbound'),
      queue: unique('q'),
      tenant: 'none',
      secret,
      driver: fixture.driver,
      handle: ({ eventId }) => {
        handled.push(eventId);
      },
    });
    const server = await listen(nodeWebhookListener(webhookHandler(inbound)));
    closers.push(server.close);
    const ledger = memoryWebhookLedger();
    const outbound = webhook({
      name: unique('pg.outbound'),
      queue: unique('q'),
      tenant: ({ orgId }) => orgId!,
      endpoint: () => ({ url: server.url, secret }),
      event: () => ({ type: 'ping', data: { ok: true } }),
      ledger,
    });
    await fixture.worker([inbound, outbound]);
    const delivery = await outbound.enqueue({ endpointId: 'ep', eventId: 'evt-rt-1', orgId: 'org-1' });
    await until(() => handled.length === 1);
    await until(async () => (await fixture.driver.introspect!.get(delivery.id))?.state === 'done');
    expect(handled).toEqual(['evt-rt-1']);
    expect(ledger.attempts().map((a) => [a.status, a.responseCode])).toEqual([['delivered', 200]]);
  });

  it('a receiver whose database is unreachable answers 503 with Retry-After', async () => {
    // A real refusal: nothing listens on port 1, so every connection attempt fails at once.
    const pool = new pg.Pool({
      connectionString: 'postgres://postgres@127.0.0.1:1/postgres',
      connectionTimeoutMillis: 2_000,
      max: 1,
    });
    const unreachable = postgresJobDriver({ pool }, { migrate: false });
    closers.push(async () => {
      await unreachable.close();
      await pool.end();
    });
    const secret = generateWebhookSecret();
    const inbound = webhookReceiver({
      name: unique('pg.unreachable'),
      tenant: 'none',
      secret,
      driver: unreachable,
      handle: () => undefined,
    });
    const server = await listen(nodeWebhookListener(webhookHandler(inbound)));
    closers.push(server.close);
    const { Webhook } = await import('standardwebhooks');
    const body = '{"x":1}';
    const response = await fetch(server.url, {
      method: 'POST',
      body,
      headers: {
        'webhook-id': 'msg_down',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': new Webhook(secret).sign('msg_down', new Date(), body),
      },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toEqual({ error: 'X_WEBHOOK_RECEIVER_UNAVAILABLE' });
  });
});
