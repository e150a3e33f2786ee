import { randomUUID } from 'node:crypto';
import type { JobDriver } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { redisJobDriver } from '@x/jobs-driver-redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboard, type JobListJson, type LsJson, type ShowJson } from '../src/index.js';
import { enqueueRow, killRow } from './memory-rows.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOKEN = `every-driver-${randomUUID()}`;

/** A driver and how to throw it (and whatever it stored) away. */
interface Opened {
  readonly driver: JobDriver;
  destroy(): Promise<void>;
}

function redis(): Opened {
  const prefix = `x-dash-${randomUUID()}`;
  const driver = redisJobDriver({ url: REDIS_URL, prefix });
  return {
    driver,
    async destroy() {
      await driver.close?.();
      const client = new Redis(REDIS_URL);
      try {
        const keys = await client.keys(`{${prefix}}*`);
        if (keys.length > 0) await client.del(...keys);
      } finally {
        client.disconnect();
      }
    },
  };
}

function memory(): Opened {
  const driver = memoryJobDriver();
  return { driver, destroy: async () => driver.close?.() };
}

// PostgreSQL and PGlite run the same round trip in a browser (dashboard-browser.test.ts).
describe.each([
  ['Redis', redis],
  ['memory', memory],
] as const)('one dashboard over %s', (_label, open) => {
  let opened: Opened;
  beforeAll(() => {
    opened = open();
  });
  afterAll(() => opened?.destroy());

  it('lists the queue and the dead job, shows it redacted, and retries it', async () => {
    const queue = `q-${randomUUID()}`;
    const id = await enqueueRow(opened.driver, {
      name: 'charge',
      queue,
      payload: { order: 'o-1', apiKey: 'sk' },
    });
    await killRow(opened.driver, queue, { code: 'X_DECLINED', message: 'declined' });
    const dashboard = createDashboard({ driver: opened.driver, token: TOKEN });
    const get = async <T>(path: string): Promise<T> => {
      const response = await dashboard(
        new Request(`http://127.0.0.1${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      );
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };
    const queues = await get<LsJson>('/api/queues');
    expect(queues.queues.find((row) => row.queue === queue)).toMatchObject({ dead: 1, depth: 0 });
    const dead = await get<JobListJson>(`/api/dead?queue=${queue}`);
    expect(dead.jobs.map((job) => job.id)).toEqual([id]);
    const shown = await get<ShowJson>(`/api/jobs/${id}`);
    expect(shown.job).toMatchObject({ state: 'dead', payload: { order: 'o-1', apiKey: '[redacted]' } });
    const retried = await dashboard(
      new Request(`http://127.0.0.1/api/jobs/${id}/retry`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
      }),
    );
    expect(retried.status).toBe(200);
    expect((await get<ShowJson>(`/api/jobs/${id}`)).job).toMatchObject({ state: 'ready', attempts: 0 });
  });
});
