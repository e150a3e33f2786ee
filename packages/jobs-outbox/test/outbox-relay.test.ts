import { type JobDriver, JobsError, recordingLogger } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MemoryOutboxStore, memoryOutboxStore } from '../src/memory/memory-outbox-store.js';
import { createOutboxRelay, type OutboxRelay } from '../src/outbox-relay.js';
import { observedDriver, testRequest, until } from '../test-support/relay-fixtures.js';

let store: MemoryOutboxStore;
let queue: JobDriver;
let observed: ReturnType<typeof observedDriver>;
const relays: OutboxRelay[] = [];
const relay = (options: Partial<Parameters<typeof createOutboxRelay>[0]> = {}) => {
  const created = createOutboxRelay({
    store,
    driver: observed.driver,
    logger: recordingLogger(),
    ...options,
  });
  relays.push(created);
  return created;
};
const stage = (...requests: ReturnType<typeof testRequest>[]) =>
  store.transaction((tx) => store.stageMany(tx, requests));
const stagedRequests = (count: number) =>
  Array.from({ length: count }, (_, n) => testRequest('relay-job', n));

beforeEach(() => {
  store = memoryOutboxStore();
  queue = memoryJobDriver();
  observed = observedDriver(queue);
});
afterEach(async () => {
  await Promise.all(relays.splice(0).map((created) => created.stop()));
});

describe('createOutboxRelay: a pass', () => {
  it('publishes committed rows in staging order with the staged job ids, then retires them', async () => {
    const requests = stagedRequests(5);
    await stage(...requests.slice(0, 2));
    await stage(...requests.slice(2));
    expect(await relay().runOnce()).toEqual({ claimed: 5, published: 5 });
    expect(observed.published.map((request) => request.id)).toEqual(requests.map((request) => request.id));
    const rows = (await queue.introspect?.list({ name: 'relay-job', limit: 10 }))?.jobs ?? [];
    expect(rows.map((row) => row.id).sort()).toEqual(requests.map((request) => request.id).sort());
    expect(await store.backlog()).toBe(0);
  });

  it('publishes with onConflict: dedupe, so a row staged twice for one live key is one job', async () => {
    const first = testRequest('relay-job', 1);
    await stage(first, { ...testRequest('relay-job', 1), onConflict: 'dedupe' });
    await relay().runOnce();
    const rows = (await queue.introspect?.list({ name: 'relay-job' }))?.jobs ?? [];
    expect(rows.map((row) => row.id)).toEqual([first.id]);
  });

  it('a failed publish publishes nothing, releases the whole batch at once and records the error', async () => {
    const requests = stagedRequests(3);
    await stage(...requests);
    const logger = recordingLogger();
    observed.intercept(async () => {
      throw new JobsError('X_DRIVER_UNAVAILABLE', 'queue down');
    });
    expect(await relay({ logger }).runOnce()).toEqual({ claimed: 3, published: 0 });
    expect(logger.events).toContainEqual(
      expect.objectContaining({ level: 'warn', event: 'jobs.outbox.publish-failed' }),
    );
    // Released at once: a claim right now (no lease wait) gets the same head, with the error.
    const again = await store.claim({ claimant: 'next', limit: 10, leaseMs: 1000 });
    expect(again.map((record) => record.request.id)).toEqual(requests.map((request) => request.id));
    expect(again[0]?.lastError).toMatch(/^X_DRIVER_UNAVAILABLE/);
    expect(observed.published).toHaveLength(0);
  });

  it('logs jobs.outbox.lease-lost when its lease lapsed and another relay reclaimed the batch', async () => {
    await stage(...stagedRequests(2));
    const logger = recordingLogger();
    const held = observed.hold();
    const slow = relay({ logger, claimLeaseMs: 1 }).runOnce();
    await held.reached;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const thief = await store.claim({ claimant: 'thief', limit: 10, leaseMs: 60_000 });
    expect(thief).toHaveLength(2);
    held.open();
    expect(await slow).toEqual({ claimed: 2, published: 2 });
    expect(logger.events).toContainEqual(
      expect.objectContaining({ level: 'warn', event: 'jobs.outbox.lease-lost' }),
    );
    expect(
      await store.markPublished(
        'thief',
        thief.map((record) => record.id),
      ),
    ).toBe(2);
  });
});

describe('createOutboxRelay: the loop', () => {
  it('logs a pass that throws as jobs.outbox.tick-failed and re-arms', async () => {
    await stage(...stagedRequests(2));
    const logger = recordingLogger();
    const claim = store.claim.bind(store);
    let failures = 1;
    store.claim = async (options) => {
      if (failures-- > 0) throw new Error('connection reset');
      return claim(options);
    };
    relay({ logger, pollMs: 5 }).start();
    await until(() => observed.published.length === 2);
    expect(logger.events).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'jobs.outbox.tick-failed' }),
    );
  });

  it('after a failed publish, waits out pollMs even when commits wake it', async () => {
    await stage(...stagedRequests(1));
    let attempts = 0;
    observed.intercept(async () => {
      attempts += 1;
      throw new JobsError('X_DRIVER_UNAVAILABLE', 'queue down');
    });
    relay({ pollMs: 60_000 }).start();
    await until(() => attempts === 1);
    for (let n = 0; n < 5; n += 1) await stage(...stagedRequests(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(attempts).toBe(1);
  });

  it('keeps passing without waiting while batches come back full', async () => {
    await stage(...stagedRequests(7));
    relay({ batch: 2, pollMs: 60_000 }).start();
    await until(() => observed.published.length === 7);
    expect(await store.backlog()).toBe(0);
  });

  it("wakes on the store's commit signal instead of waiting out pollMs", async () => {
    relay({ pollMs: 60_000 }).start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await stage(...stagedRequests(1));
    await until(() => observed.published.length === 1, 2000);
  });

  it('stop() resolves only after the pass in flight has published and marked its batch', async () => {
    await stage(...stagedRequests(3));
    const held = observed.hold();
    const running = relay({ pollMs: 5 });
    running.start();
    await held.reached;
    let stopped = false;
    const stopping = running.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(await store.backlog()).toBe(0);
    expect(observed.published).toHaveLength(3);
  });

  it('refuses invalid options at construction (X_OUTBOX_OPTIONS_INVALID)', () => {
    for (const bad of [
      { batch: 0 },
      { batch: 1001 },
      { batch: 1.5 },
      { pollMs: -1 },
      { pollMs: Number.NaN },
      { claimLeaseMs: 0 },
      { name: '' },
    ]) {
      expect(() => createOutboxRelay({ store, driver: queue, ...bad }), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: 'X_OUTBOX_OPTIONS_INVALID' }),
      );
    }
  });
});
