import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './sign-webhook.js';
import { verifyWebhook } from './verify-webhook.js';
import { generateWebhookSecret, webhookSecretKey } from './webhook-secret.js';

// The example of the Standard Webhooks specification's reference test suites.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('the Standard Webhooks scheme', () => {
  it("reproduces the specification's test vector", () => {
    expect(signWebhook(VECTOR)['webhook-signature']).toBe(VECTOR.signature);
  });

  it('signs what the published standardwebhooks package verifies', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({
      type: 'order.paid',
      timestamp: new Date().toISOString(),
      data: { id: 'o-1' },
    });
    const headers = signWebhook({ id: 'evt_1', timestamp: Date.now() / 1000, body, secret });
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('verifies what the published package signs, through any of several rotated secrets', () => {
    const secret = generateWebhookSecret();
    const now = new Date();
    const body = '{"hello":"world"}';
    const signature = new Webhook(secret).sign('evt_2', now, body);
    const headers = {
      'webhook-id': 'evt_2',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(verifyWebhook({ headers, body, secret: [generateWebhookSecret(), secret] })).toEqual({
      id: 'evt_2',
      timestamp: Math.floor(now.getTime() / 1000),
    });
  });

  it('refuses a tampered body, a stale or future timestamp, and missing headers, naming the reason', () => {
    const headers = signWebhook(VECTOR);
    const at = (seconds: number) => () => seconds * 1000;
    const reasonOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return [(error as { code: string }).code, (error as { meta: { reason: string } }).meta.reason];
      }
      return ['accepted'];
    };
    const now = at(VECTOR.timestamp + 10);
    expect(reasonOf(() => verifyWebhook({ headers, body: VECTOR.body, secret: VECTOR.secret, now }))).toEqual(
      ['accepted'],
    );
    expect(
      reasonOf(() => verifyWebhook({ headers, body: `${VECTOR.body} `, secret: VECTOR.secret, now })),
    ).toEqual(['X_WEBHOOK_SIGNATURE_INVALID', 'signature']);
    for (const drift of [-301, 301]) {
      expect(
        reasonOf(() =>
          verifyWebhook({
            headers,
            body: VECTOR.body,
            secret: VECTOR.secret,
            now: at(VECTOR.timestamp + drift),
          }),
        ),
      ).toEqual(['X_WEBHOOK_SIGNATURE_INVALID', 'timestamp']);
    }
    const { 'webhook-signature': _, ...unsigned } = headers;
    expect(
      reasonOf(() => verifyWebhook({ headers: unsigned, body: VECTOR.body, secret: VECTOR.secret, now })),
    ).toEqual(['X_WEBHOOK_SIGNATURE_INVALID', 'headers']);
    expect(
      reasonOf(() => verifyWebhook({ headers, body: VECTOR.body, secret: generateWebhookSecret(), now })),
    ).toEqual(['X_WEBHOOK_SIGNATURE_INVALID', 'signature']);
  });

  it('refuses secrets that are not base64, without echoing them', () => {
    for (const secret of ['whsec_', 'whsec_not base64!', '']) {
      expect(() => webhookSecretKey(secret)).toThrow(
        expect.objectContaining({ code: 'X_WEBHOOK_SECRET_INVALID' }),
      );
    }
    expect(webhookSecretKey(VECTOR.secret)).toEqual(webhookSecretKey(VECTOR.secret.slice('whsec_'.length)));
  });
});
