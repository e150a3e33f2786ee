import { resetJobDriver, setJobDriver } from '@x/jobs-core';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, webhook } from '../src/index.js';
import { kyselyWebhookLedger } from '../src/kysely/index.js';
import { DATABASE_URL, postgresFixture, until } from './postgres-fixture.js';
import { testReceiver } from './test-receiver.js';

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
let fixture: Awaited<ReturnType<typeof postgresFixture>>;
// biome-ignore lint/suspicious/noExplicitAny: the ledger names its own tables.
let db: Kysely<any>;

beforeAll(async () => {
  fixture = await postgresFixture('webhook_ledger');
  setJobDriver(fixture.driver);
  db = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: DATABASE_URL, max: 2 }) }),
  });
});
afterAll(async () => {
  resetJobDriver();
  await db.destroy();
  await fixture.drop();
});

describe('kyselyWebhookLedger on Postgres', () => {
  it('records each attempt, counts failures since the last delivery, and disables after disableAfter', async () => {
    const ledger = kyselyWebhookLedger(db, { schema: fixture.schema });
    await ledger.migrate();
    await ledger.migrate(); // idempotent
    const secret = generateWebhookSecret();
    const receiver = await testReceiver([{ status: 500 }, { status: 200 }, { status: 503 }], () => secret);
    try {
      const hook = webhook({
        name: unique('pg.ledger'),
        queue: unique('q'),
        tenant: 'none',
        endpoint: () => ({ url: receiver.url, secret }),
        event: () => ({ type: 'ping', data: 1 }),
        ledger,
        disableAfter: 2,
        retry: { attempts: 5, backoff: 'fixed', delay: 50, jitter: false },
      });
      await fixture.worker([hook]);
      const ok = await hook.enqueue({ endpointId: 'ep', eventId: 'e-1' });
      await until(async () => (await fixture.driver.introspect!.get(ok.id))?.state === 'done');
      const doomed = await hook.enqueue({ endpointId: 'ep', eventId: 'e-2' });
      await until(async () => (await fixture.driver.introspect!.get(doomed.id))?.state === 'dead');
      expect((await fixture.driver.introspect!.get(doomed.id))?.lastError?.code).toBe(
        'X_WEBHOOK_ENDPOINT_DISABLED',
      );
      expect(await ledger.disabled('ep')).toBe('failures');
      const rows = await db
        .withSchema(fixture.schema)
        .selectFrom('webhook_attempts')
        .select(['event_id', 'status', 'response_code', 'error_code'])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.event_id, r.status, r.response_code])).toEqual([
        ['e-1', 'failed', 500],
        ['e-1', 'delivered', 200],
        ['e-2', 'failed', 503],
        ['e-2', 'failed', 503],
      ]);
      expect(JSON.stringify(rows)).not.toContain(secret.slice('whsec_'.length));
      await ledger.enable('ep');
      expect(await ledger.disabled('ep')).toBeNull();
    } finally {
      await receiver.close();
    }
  });
});
