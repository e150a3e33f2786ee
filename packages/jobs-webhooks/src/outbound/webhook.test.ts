import { createWorker, silentLogger } from '@x/jobs-core';
import { prepareEnqueue } from '@x/jobs-core/driver';
import { memoryJobDriver, virtualClock } from '@x/jobs-driver-memory';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { type Behaviour, testReceiver } from '../../test/test-receiver.js';
import { generateWebhookSecret } from '../standard-webhooks/webhook-secret.js';
import { memoryWebhookLedger } from './memory-webhook-ledger.js';
import { webhook } from './webhook.js';
import type { WebhookDefinition, WebhookEndpoint } from './webhook-definition.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** A harness, a real receiver following `script`, and a webhook pointed at it. */
async function setup(script: readonly Behaviour[], extra: Partial<WebhookDefinition> = {}) {
  let secret = generateWebhookSecret();
  const receiver = await testReceiver(script, () => secret);
  closers.push(receiver.close);
  const ledger = memoryWebhookLedger();
  const reads = { endpoint: 0, event: 0 };
  let endpoint: WebhookEndpoint | null = { url: receiver.url, secret };
  const clock = virtualClock();
  const hook = webhook({
    name: unique('partner.webhooks'),
    tenant: ({ orgId }) => orgId ?? 'none',
    endpoint: () => {
      reads.endpoint += 1;
      return endpoint;
    },
    event: ({ eventId }) => {
      reads.event += 1;
      return { type: 'order.paid', data: { orderId: eventId, amount: 42 } };
    },
    ledger,
    // Long enough that a loaded CI machine answers every scripted reply in time (at 300 ms a slow
    // 200 once timed out and cost a fifth attempt); the one hang waits it out.
    timeout: '2s',
    retry: { attempts: 6, backoff: 'fixed', delay: '1s', jitter: false, maxDelay: '1m' },
    now: () => clock.now(),
    ...extra,
  });
  const h: JobTestHarness = createJobTestHarness({ jobs: [hook], clock });
  closers.push(() => h.close());
  const deliver = (eventId = unique('evt')) => h.run(hook, { endpointId: 'ep-1', eventId, orgId: 'org-1' });
  return {
    h,
    hook,
    receiver,
    ledger,
    reads,
    deliver,
    rotate: () => {
      secret = generateWebhookSecret();
      endpoint = { url: receiver.url, secret };
    },
    drop: () => {
      endpoint = null;
    },
    secret: () => secret,
  };
}

describe('webhook() against a real receiver on loopback', () => {
  it('retries a receiver that fails, throttles and times out, and settles when it recovers', async () => {
    const t = await setup([
      { status: 500 },
      { status: 429, headers: { 'retry-after': '7' } },
      { hang: true },
      { status: 200 },
    ]);
    const { id } = await t.deliver('evt-1');
    await t.h.drain();
    const row = await t.h.job(id);
    expect(row?.state).toBe('done');
    expect(row?.attempts).toBe(4);
    expect(row?.result).toMatchObject({ status: 'delivered', responseCode: 200 });
    const attempts = t.ledger.attempts('ep-1');
    expect(attempts.map((a) => [a.status, a.responseCode, a.errorCode])).toEqual([
      ['failed', 500, 'X_WEBHOOK_DELIVERY_FAILED'],
      ['throttled', 429, 'X_WEBHOOK_DELIVERY_THROTTLED'],
      ['timeout', null, 'X_WEBHOOK_DELIVERY_FAILED'],
      ['delivered', 200, null],
    ]);
    // The 429's Retry-After (7 s) replaced the 1 s backoff for that retry only.
    expect(attempts[1]!.startedAt - attempts[0]!.startedAt).toBe(1_000);
    expect(attempts[2]!.startedAt - attempts[1]!.startedAt).toBe(7_000);
    expect(attempts[3]!.startedAt - attempts[2]!.startedAt).toBe(1_000);
    expect(attempts[2]!.durationMs).toBeGreaterThanOrEqual(1_950);
    // Every request verified with the published standardwebhooks package and carried one webhook-id.
    expect(t.receiver.requests).toHaveLength(4);
    expect(t.receiver.requests.every((r) => r.verified)).toBe(true);
    expect(new Set(t.receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set(['evt-1']));
    expect(JSON.parse(t.receiver.requests[0]!.body)).toMatchObject({
      type: 'order.paid',
      data: { orderId: 'evt-1' },
    });
  });

  it('reads the endpoint and event at every attempt: a rotated secret signs the retry, and nothing secret is stored', async () => {
    const t = await setup([{ status: 503 }, { status: 204 }]);
    const { id } = await t.deliver();
    await t.h.worker.runDue(); // attempt 1 only: its retry is a second away on the virtual clock
    const before = t.secret();
    t.rotate(); // the receiver now verifies with the new secret only
    await t.h.drain();
    expect(t.reads).toEqual({ endpoint: 2, event: 2 });
    expect((await t.h.job(id))?.state).toBe('done');
    // Each request verified under the secret of its moment; the retry's fails under the old one.
    expect(t.receiver.requests.map((r) => r.verified)).toEqual([true, true]);
    const retry = t.receiver.requests[1]!;
    expect(() => new Webhook(before).verify(retry.body, retry.headers as Record<string, string>)).toThrow();
    const stored = JSON.stringify({ row: await t.h.job(id), ledger: t.ledger.attempts() });
    for (const secret of [before, t.secret()]) expect(stored).not.toContain(secret.slice('whsec_'.length));
  });

  it('a 410 disables the endpoint at once; the next delivery is terminal without a request', async () => {
    const t = await setup([{ status: 410 }]);
    const gone = await t.deliver();
    await t.h.drain();
    const row = await t.h.job(gone.id);
    expect(row).toMatchObject({ state: 'dead', attempts: 1, stopReason: 'terminal' });
    expect(row?.lastError?.code).toBe('X_WEBHOOK_ENDPOINT_DISABLED');
    expect(await t.ledger.disabled('ep-1')).toBe('gone');
    const next = await t.deliver();
    await t.h.drain();
    expect((await t.h.job(next.id))?.lastError?.code).toBe('X_WEBHOOK_ENDPOINT_DISABLED');
    expect(t.receiver.requests).toHaveLength(1);
    expect(t.ledger.attempts().map((a) => a.status)).toEqual(['gone', 'disabled']);
  });

  it('disables the endpoint after disableAfter consecutive failures, and a success resets the count', async () => {
    const t = await setup([{ status: 500 }, { status: 200 }, { status: 502 }], { disableAfter: 3 });
    await t.deliver();
    await t.h.drain(); // 500, then 200: the count went 1 → 0
    const doomed = await t.deliver();
    await t.h.drain(); // 502 three times → disabled on the third
    const row = await t.h.job(doomed.id);
    expect(row).toMatchObject({ state: 'dead', attempts: 3, stopReason: 'terminal' });
    expect(row?.lastError?.code).toBe('X_WEBHOOK_ENDPOINT_DISABLED');
    expect(await t.ledger.disabled('ep-1')).toBe('failures');
    expect(t.receiver.requests).toHaveLength(5);
    await t.ledger.enable('ep-1');
    expect(await t.ledger.disabled('ep-1')).toBeNull();
  });

  it('another 4xx is terminal on the first attempt; an unknown endpoint is terminal with nothing sent', async () => {
    const t = await setup([{ status: 400 }]);
    const rejected = await t.deliver();
    await t.h.drain();
    expect(await t.h.job(rejected.id)).toMatchObject({ state: 'dead', attempts: 1, stopReason: 'terminal' });
    expect((await t.h.job(rejected.id))?.lastError?.code).toBe('X_WEBHOOK_DELIVERY_REJECTED');
    t.drop();
    const unknown = await t.deliver();
    await t.h.drain();
    expect((await t.h.job(unknown.id))?.lastError?.code).toBe('X_WEBHOOK_ENDPOINT_UNKNOWN');
    expect(t.receiver.requests).toHaveLength(1);
    expect(t.ledger.attempts().map((a) => a.status)).toEqual(['rejected', 'invalid']);
  });

  it('one live delivery per (endpoint, event): a second enqueue dedupes', async () => {
    const t = await setup([{ status: 200 }]);
    const first = await t.deliver('evt-9');
    expect(await t.deliver('evt-9')).toMatchObject({ id: first.id, deduped: true });
  });

  it('refuses bad declarations with X_WEBHOOK_INVALID naming the field', () => {
    const base = {
      name: unique('bad'),
      tenant: 'none' as const,
      endpoint: () => null,
      event: () => null,
      ledger: memoryWebhookLedger(),
    };
    for (const [field, patch] of [
      ['ledger', { ledger: undefined }],
      ['endpoint', { endpoint: 'https://x' }],
      ['disableAfter', { disableAfter: 0 }],
      ['timeout', { timeout: 'soon' }],
      ['tenant', { tenant: undefined }],
    ] as const) {
      expect(() => webhook({ ...base, ...patch } as never), field).toThrow(
        expect.objectContaining({ code: 'X_WEBHOOK_INVALID', meta: { field } }),
      );
    }
  });
});

describe('webhook() under a real worker', () => {
  it('a drain mid-request aborts the fetch, records it interrupted and hands the job back uncounted', async () => {
    const secret = generateWebhookSecret();
    const receiver = await testReceiver([{ hang: true }], () => secret);
    closers.push(receiver.close);
    const ledger = memoryWebhookLedger();
    const driver = memoryJobDriver();
    closers.push(() => driver.close());
    const hook = webhook({
      name: unique('drained.webhooks'),
      tenant: 'none',
      endpoint: () => ({ url: receiver.url, secret }),
      event: () => ({ type: 't', data: null }),
      ledger,
      timeout: '60s',
    });
    const worker = createWorker({
      driver,
      context: () => ({}),
      registry: { get: (name) => (name === hook.name ? hook : undefined) },
      queues: [hook.queue],
      handleSignals: false,
      logger: silentLogger,
    });
    const { id } = await driver.enqueue(prepareEnqueue(hook, { endpointId: 'ep', eventId: 'e' }));
    await worker.start();
    const deadline = Date.now() + 10_000;
    while (receiver.requests.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    await worker.drain();
    expect(await driver.introspect!.get(id)).toMatchObject({ state: 'ready', attempts: 0 });
    expect(ledger.attempts().map((a) => a.status)).toEqual(['interrupted']);
  });
});
