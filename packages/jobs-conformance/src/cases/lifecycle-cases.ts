import { DRIVER_STORES } from '@x/jobs-core/driver';
import { expectErrorCode } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { stepRecord } from './step-records.js';

const group = 'close';

/** close(): idempotent, and every later call is refused with X_DRIVER_CLOSED. */
export const lifecycleCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'close twice is safe',
    async run(h) {
      await h.enqueue(h.queue);
      await h.driver.close();
      await h.driver.close();
      await expectErrorCode(() => h.driver.stats(), 'X_DRIVER_CLOSED');
    },
  },
  {
    group,
    name: 'every queue call after close rejects with X_DRIVER_CLOSED',
    async run(h) {
      const request = h.request(h.queue);
      await h.driver.enqueue(h.request(h.queue));
      const [job] = await h.claim(h.queue);
      const claim = job!.claim;
      const { driver } = h;
      await driver.close();
      const calls: Record<string, () => unknown> = {
        enqueue: () => driver.enqueue(request),
        enqueueMany: () => driver.enqueueMany([request]),
        claim: () => driver.claim({ queues: [h.queue], limit: 1, workerId: 'w', visibilityTimeoutMs: 1000 }),
        start: () => driver.start(job!.id, claim, 1000),
        ack: () => driver.ack(job!.id, claim),
        nack: () => driver.nack(job!.id, claim, { kind: 'release' }),
        heartbeat: () => driver.heartbeat(job!.id, claim, 1000),
        progress: () => driver.progress(job!.id, claim, { current: 1, total: null }),
        stats: () => driver.stats(),
      };
      for (const [name, call] of Object.entries(calls)) {
        await expectErrorCode(call, 'X_DRIVER_CLOSED', name);
      }
    },
  },
  {
    group,
    name: 'every store call after close rejects with X_DRIVER_CLOSED',
    async run(h) {
      const { driver, introspect, leases, rateLimits, schedules, backfills } = h;
      await driver.close();
      const fence = { jobId: 'j', runId: 'r', claim: { workerId: 'w', token: 't' } };
      const step = stepRecord('s', 0, 0, { status: 'started', output: null, completedAt: null });
      const calls: Record<string, () => unknown> = {
        'steps.load': () => driver.steps.load('r'),
        'steps.save': () => driver.steps.save(fence, step),
        'events.publish': () => driver.events.publish('e', {}, { ttlMs: 1000 }),
        'events.find': () => driver.events.find('e', { since: 0 }),
        'events.purgeExpired': () => driver.events.purgeExpired(),
        'introspect.list': () => introspect.list(),
        'introspect.get': () => introspect.get('j'),
        'introspect.pause': () => introspect.pause('q'),
        'leases.acquire': () => leases.acquire('k', 'h', { limit: 1, ttlMs: 1000 }),
        'rateLimits.take': () => rateLimits.take('k', { limit: 1, perMs: 1000 }),
        'schedules.advance': () => schedules.advance('t', null, 1),
        'backfills.list': () => backfills.list(),
      };
      for (const [name, call] of Object.entries(calls)) {
        await expectErrorCode(call, 'X_DRIVER_CLOSED', name);
      }
    },
  },
  {
    group,
    name: 'every method of the driver and of each store rejects with X_DRIVER_CLOSED after close',
    async run(h) {
      const { driver } = h;
      await driver.close();
      const members: Record<string, unknown> = { ...driver };
      const calls: [string, () => unknown][] = [];
      for (const [key, value] of Object.entries(members)) {
        if (typeof value === 'function' && key !== 'close' && key !== 'now') {
          calls.push([key, () => (value as () => unknown).call(driver)]);
        }
      }
      for (const store of DRIVER_STORES) {
        for (const [key, value] of Object.entries(driver[store] ?? {})) {
          if (typeof value === 'function') {
            calls.push([`${store}.${key}`, () => (value as () => unknown).call(driver[store])]);
          }
        }
      }
      for (const [name, call] of calls) await expectErrorCode(call, 'X_DRIVER_CLOSED', name);
      await expectErrorCode(
        () => driver.close().then(() => driver.stats()),
        'X_DRIVER_CLOSED',
        'close again',
      );
    },
  },
];
