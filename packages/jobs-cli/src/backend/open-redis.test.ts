import { randomUUID } from 'node:crypto';
import type { LsJson, ShowJson } from '@x/jobs-dashboard';
import { redisJobDriver } from '@x/jobs-driver-redis';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/run-cli.js';
import type { MigrateJson } from '../commands/migrate.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('x-jobs on Redis (REDIS_URL picks the driver)', () => {
  const prefix = `x-cli-${randomUUID().slice(0, 8)}`;
  const env = { REDIS_URL, X_JOBS_REDIS_PREFIX: prefix };
  const driver = redisJobDriver({ url: REDIS_URL, prefix });
  afterAll(async () => {
    await driver.close();
    const admin = new Redis(REDIS_URL);
    const keys = await admin.keys(`{${prefix}}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  it('lists, shows and removes a row, and has nothing to migrate', async () => {
    const { id } = await driver.enqueue({
      id: randomUUID(),
      runId: randomUUID(),
      name: 'sendEmail',
      queue: 'emails',
      payload: { to: 'a@example.com', smtpPassword: 'hunter2' },
      tenantId: null,
      idempotencyKey: 'k-1',
      priority: 0,
      maxAttempts: 3,
    });
    const migrate = await runCli(['migrate', '--json'], { env });
    expect(migrate.json<MigrateJson>()).toEqual({ backend: 'redis', schema: null, applied: [], version: 0 });

    const ls = await runCli(['ls', '--json'], { env });
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.json<LsJson>().queues).toEqual([
      expect.objectContaining({ queue: 'emails', depth: 1, counts: expect.objectContaining({ ready: 1 }) }),
    ]);

    const show = await runCli(['show', id, '--json'], { env });
    expect(show.json<ShowJson>().job).toMatchObject({
      name: 'sendEmail',
      payload: { smtpPassword: '[redacted]' },
    });

    const remove = await runCli(['remove', id], { env });
    expect(remove.code, remove.stderr).toBe(0);
    expect(await driver.introspect?.get(id)).toBeNull();
  });
});
