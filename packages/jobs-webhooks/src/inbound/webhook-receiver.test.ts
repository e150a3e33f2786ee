import type { JobDriver } from '@x/jobs-core';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, streamUntilAnswered } from '../../test/listen.js';
import { nodeWebhookListener } from '../node/node-webhook-listener.js';
import { generateWebhookSecret } from '../standard-webhooks/webhook-secret.js';
import type { WebhookVerifier } from './receiver-definition.js';
import { webhookHandler, webhookReceiver } from './webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** A receiver on the memory harness, served by the Node adapter on loopback. */
async function setup(extra: { maxBytes?: number; driver?: JobDriver; verify?: WebhookVerifier } = {}) {
  const secret = generateWebhookSecret();
  const handled: { eventId: string; payload: unknown }[] = [];
  const receiver = webhookReceiver({
    name: unique('vendor.events'),
    tenant: 'none',
    ...(extra.verify === undefined ? { secret } : { verify: extra.verify }),
    handle: ({ eventId, payload }) => {
      handled.push({ eventId, payload });
    },
    ...(extra.maxBytes === undefined ? {} : { maxBytes: extra.maxBytes }),
    ...(extra.driver === undefined ? {} : { driver: extra.driver }),
    retryAfterSeconds: 12,
  });
  const h: JobTestHarness = createJobTestHarness({ jobs: [receiver] });
  closers.push(() => h.close());
  const server = await listen(nodeWebhookListener(webhookHandler(receiver)));
  closers.push(server.close);
  const signer = new Webhook(secret);
  const post = async (id: string, body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(server.url, {
      method: 'POST',
      body,
      headers: {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': signer.sign(id, new Date(), body),
        ...headers,
      },
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  return { receiver, h, handled, server, post };
}

describe('webhookReceiver() behind the Node adapter', () => {
  it('verifies, enqueues, then answers 200 { eventId, deduped }; a live redelivery dedupes; handle gets the payload', async () => {
    const t = await setup();
    const body = JSON.stringify({ type: 'invoice.paid', data: { id: 'in_1' } });
    expect(await t.post('msg_1', body)).toMatchObject({
      status: 200,
      body: { eventId: 'msg_1', deduped: false },
    });
    expect(await t.post('msg_1', body)).toMatchObject({
      status: 200,
      body: { eventId: 'msg_1', deduped: true },
    });
    await t.h.drain();
    expect(t.handled).toEqual([
      { eventId: 'msg_1', payload: { type: 'invoice.paid', data: { id: 'in_1' } } },
    ]);
    // Settled: a redelivery now is a new row, and handle runs again (at least once).
    expect(await t.post('msg_1', body)).toMatchObject({ status: 200, body: { deduped: false } });
    await t.h.drain();
    expect(t.handled).toHaveLength(2);
  });

  it('a bad signature or a stale timestamp is 401, and nothing is enqueued', async () => {
    const t = await setup();
    const forged = await t.post('msg_2', '{"a":1}', { 'webhook-signature': 'v1,AAAA' });
    expect(forged).toMatchObject({ status: 401, body: { error: 'X_WEBHOOK_SIGNATURE_INVALID' } });
    const stale = await t.post('msg_3', '{"a":1}', {
      'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600),
    });
    expect(stale.status).toBe(401);
    expect(await t.h.drain()).toMatchObject({ executed: 0 });
  });

  it('an eventId outside 1–256 printable ASCII is 422 and never echoed', async () => {
    // A verifier that takes the id from the (signed) body, so any id can be tried.
    const t = await setup({
      verify: (inbound) => ({ eventId: JSON.parse(inbound.text()).id, payload: null }),
    });
    for (const id of ['', 'x'.repeat(257), 'évt-1', 'evt\ttab', 'evt\u0000', 42]) {
      const answer = await t.post('ignored', JSON.stringify({ id }));
      expect(answer).toMatchObject({ status: 422, body: { error: 'X_WEBHOOK_EVENT_ID_INVALID' } });
      expect(JSON.stringify(answer.body)).not.toContain(String(id) || '""x');
    }
    expect(await t.post('ignored', JSON.stringify({ id: `${'z'.repeat(255)}~` }))).toMatchObject({
      status: 200,
    });
    expect(await t.h.drain()).toMatchObject({ executed: 1 });
  });

  it('a body over maxBytes is 413, by content-length at once, and mid-stream without reading the rest', async () => {
    const t = await setup({ maxBytes: 1024 });
    const declared = await t.post('msg_4', 'x'.repeat(2048));
    expect(declared).toMatchObject({ status: 413, body: { error: 'X_WEBHOOK_PAYLOAD_TOO_LARGE' } });
    const total = 64 * 1024 * 1024;
    const streamed = await streamUntilAnswered(t.server.port, total);
    expect(streamed.status).toBe(413);
    expect(streamed.written).toBeLessThan(total / 4);
    expect(await t.post('msg_5', '{"small":true}')).toMatchObject({ status: 200 });
  });

  it('an enqueue that fails is 503 with Retry-After, so the sender redelivers', async () => {
    const failing = {
      enqueue: async () => {
        throw Object.assign(new Error('database down'), { code: 'X_DRIVER_UNAVAILABLE' });
      },
    } as unknown as JobDriver;
    const t = await setup({ driver: failing });
    const answer = await t.post('msg_6', '{}');
    expect(answer).toMatchObject({ status: 503, body: { error: 'X_WEBHOOK_RECEIVER_UNAVAILABLE' } });
    expect(answer.headers.get('retry-after')).toBe('12');
  });

  it('any verify may be given; one that throws is 401; a non-POST is 405', async () => {
    const t = await setup({
      verify: () => {
        throw new Error('nope');
      },
    });
    expect((await t.post('msg_7', '{}')).status).toBe(401);
    const get = await fetch(t.server.url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('refuses bad declarations with X_WEBHOOK_RECEIVER_INVALID naming the field', () => {
    const base = {
      name: unique('bad'),
      tenant: 'none' as const,
      handle: () => undefined,
      secret: generateWebhookSecret(),
    };
    for (const [field, patch] of [
      ['verify', { secret: undefined }],
      ['verify', { verify: () => ({ eventId: 'a', payload: null }) }],
      ['secret', { secret: 'whsec_ not base64' }],
      ['maxBytes', { maxBytes: 0 }],
      ['handle', { handle: undefined }],
    ] as const) {
      expect(() => webhookReceiver({ ...base, ...patch } as never), field).toThrow(
        expect.objectContaining({ code: 'X_WEBHOOK_RECEIVER_INVALID', meta: { field } }),
      );
    }
    expect(() => webhookHandler({} as never)).toThrow(
      expect.objectContaining({ code: 'X_WEBHOOK_RECEIVER_INVALID' }),
    );
  });
});
