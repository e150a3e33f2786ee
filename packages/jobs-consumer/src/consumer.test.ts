import { createWorker, type JobDriver, silentLogger } from '@x/jobs-core';
import { prepareEnqueue } from '@x/jobs-core/driver';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { task } from '@x/jobs-scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { type Item, testFeed, unique, until } from '../test/feed.js';
import { consumer } from './consumer.js';
import { consumerArm, consumerSupervisor } from './consumer-supervisor.js';

const harnesses: JobTestHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

function harness(jobs: Parameters<typeof createJobTestHarness>[0]['jobs']): JobTestHarness {
  const h = createJobTestHarness({ jobs });
  harnesses.push(h);
  return h;
}

function feedConsumer(feed: ReturnType<typeof testFeed>, extra: { batch?: number } = {}) {
  return consumer<Item, number>({
    name: unique('orders'),
    tenant: 'none',
    keys: () => [...feed.feeds.keys()],
    open: ({ key, cursor }) => feed.since(key, cursor),
    handle: async ({ key, items }) => {
      feed.handled.push({ key, ids: items.map((item) => item.id) });
      return items[items.length - 1]!.id;
    },
    cursor: feed.store,
    batch: extra.batch ?? 3,
    retry: { attempts: 1 },
  });
}

describe('consumer() on the memory harness', () => {
  it('hands batches of `batch` items to handle and saves the cursor each answered', async () => {
    const feed = testFeed({ a: 7 });
    const c = feedConsumer(feed);
    const h = harness([c]);
    const { id } = await h.run(c, { key: 'a' });
    await h.drain();
    expect(feed.handled.map((b) => b.ids)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(feed.cursors.get('a')).toBe(7);
    const row = await h.job(id);
    expect(row?.state).toBe('done');
    expect(row?.result).toEqual({ batches: 3, items: 7 });
    expect(row?.idempotencyKey).toBe(`consumer:${c.name}:a`);
  });

  it('a key that died is re-armed by the arm job and resumes from its saved cursor', async () => {
    const feed = testFeed({ a: 4, b: 2 });
    const c = feedConsumer(feed, { batch: 2 });
    const arm = consumerArm(c);
    const h = harness([c, arm]);
    // First pass: key a handles one batch and saves, then new items arrive and its next batch dies.
    feed.feeds.get('a')!.splice(2);
    await h.run(c, { key: 'a' });
    await h.drain();
    expect(feed.cursors.get('a')).toBe(2);
    feed.feeds.get('a')!.push({ id: 3 }, { id: 4 });
    let poisoned = true;
    const original = feed.handled.push.bind(feed.handled);
    feed.handled.push = (...batches) => {
      if (poisoned) {
        poisoned = false;
        throw new Error('poisoned batch');
      }
      return original(...batches);
    };
    const dead = await h.run(c, { key: 'a' });
    await h.drain();
    expect((await h.job(dead.id))?.state).toBe('dead');
    expect(feed.cursors.get('a')).toBe(2);

    const pass = await h.run(arm, {});
    await h.drain();
    expect((await h.job(pass.id))?.result).toEqual({ keys: 2, armed: 2, live: 0 });
    expect(feed.idsOf('a')).toEqual([1, 2, 3, 4]);
    expect(feed.idsOf('b')).toEqual([1, 2]);
    expect(feed.cursors.get('a')).toBe(4);
  });

  it('a live key is not armed twice: its enqueue dedupes onto the running row', async () => {
    const feed = testFeed({ a: 1 });
    const c = feedConsumer(feed);
    const h = harness([c, consumerArm(c)]);
    const first = await h.run(c, { key: 'a' });
    const again = await c.enqueue({ key: 'a' });
    expect(again).toMatchObject({ id: first.id, deduped: true });
  });

  it('a body that enqueues its own key is refused with X_CONSUMER_SELF_ENQUEUE; another key is not', async () => {
    const seen: (string | undefined)[] = [];
    const c = consumer<number, number>({
      name: unique('self'),
      tenant: 'none',
      keys: () => ['a'],
      open: async function* () {
        yield 1;
      },
      handle: async ({ key, items }) => {
        if (key !== 'a') return items[0]!;
        seen.push(
          await c.enqueue({ key: 'a' }).then(
            () => 'enqueued',
            (error: { code?: string }) => error.code,
          ),
        );
        seen.push(await c.enqueue({ key: 'b' }).then(() => 'enqueued'));
        return items[0]!;
      },
      cursor: { load: () => null, save: () => undefined },
    });
    const h = harness([c]);
    await h.run(c, { key: 'a' });
    await h.drain();
    expect(seen).toEqual(['X_CONSUMER_SELF_ENQUEUE', 'enqueued']);
  });

  it('runs handle and save in the declared transaction, so a failed save undoes the batch', async () => {
    const committed: number[][] = [];
    let failSave = true;
    const c = consumer<number, number, number[][]>({
      name: unique('tx'),
      tenant: 'none',
      keys: () => ['a'],
      open: async function* ({ cursor }) {
        for (const n of [1, 2, 3]) if (n > (cursor ?? 0)) yield n;
      },
      handle: ({ items, tx }) => {
        tx.push([...items]);
        return items[items.length - 1]!;
      },
      transaction: async (work) => {
        const tx: number[][] = [];
        const next = await work(tx);
        committed.push(...tx);
        return next;
      },
      cursor: {
        load: () => null,
        save: () => {
          if (failSave) {
            failSave = false;
            throw new Error('cursor table down');
          }
        },
      },
      batch: 5,
      retry: { attempts: 2, delay: 10, jitter: false },
    });
    const h = harness([c]);
    const { id } = await h.run(c, { key: 'a' });
    await h.drain();
    expect(committed).toEqual([[1, 2, 3]]);
    expect((await h.job(id))?.attempts).toBe(2);
  });

  it('flushes a partial batch after flushAfter when the source goes quiet', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const c = consumer<number, number>({
      name: unique('slow'),
      tenant: 'none',
      keys: () => ['a'],
      open: async function* () {
        yield 1;
        yield 2;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        yield 3;
      },
      handle: ({ items }) => {
        batches.push([...items]);
        if (items.includes(2)) release();
        return items[items.length - 1]!;
      },
      cursor: { load: () => null, save: () => undefined },
      batch: 10,
      flushAfter: '50ms',
    });
    const h = harness([c]);
    await h.run(c, { key: 'a' });
    await h.drain();
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('refuses bad declarations with X_CONSUMER_INVALID naming the field', () => {
    const base = {
      name: unique('bad'),
      tenant: 'none' as const,
      keys: () => ['a'],
      open: async function* () {},
      handle: () => 0,
      cursor: { load: () => null, save: () => undefined },
    };
    const cases: [string, Record<string, unknown>][] = [
      ['cursor', { cursor: undefined }],
      ['timeout', { timeout: '5m' }],
      ['batch', { batch: 0 }],
      ['batch', { batch: 1.5 }],
      ['rearm', { rearm: '7m' }],
      ['tenant', { tenant: undefined }],
      ['handle', { handle: undefined }],
      ['flushAfter', { flushAfter: -1 }],
    ];
    for (const [field, patch] of cases) {
      expect(() => consumer({ ...base, ...patch } as never), field).toThrow(
        expect.objectContaining({ code: 'X_CONSUMER_INVALID', meta: { field } }),
      );
    }
    expect(() => consumerArm({} as never)).toThrow(expect.objectContaining({ code: 'X_CONSUMER_INVALID' }));
  });

  it('consumerSupervisor() is a task definition the scheduler accepts, firing the arm job every rearm', async () => {
    const feed = testFeed({ a: 1 });
    const c = consumer<Item, number>({
      name: unique('supervised'),
      tenant: 'none',
      keys: () => ['a'],
      open: ({ key, cursor }) => feed.since(key, cursor),
      handle: ({ items }) => items[items.length - 1]!.id,
      cursor: feed.store,
      rearm: '15m',
    });
    const supervisor = task(consumerSupervisor(c));
    expect(supervisor.describe()).toMatchObject({
      name: `${c.name}.supervisor`,
      cron: '*/15 * * * *',
      tz: 'UTC',
      catchUp: 'skip',
      jobs: [`${c.name}.arm`],
    });
    const h = harness([c, consumerArm(c)]);
    await supervisor.enqueue();
    await h.drain();
    expect(feed.cursors.get('a')).toBe(1);
  });
});

describe('consumer() under a real worker', () => {
  it('a drain mid-batch stops the body, leaves the cursor where it was, and hands the row back uncounted', async () => {
    const driver: JobDriver = memoryJobDriver();
    const handledIds: number[] = [];
    let inHandle = false;
    const cursors = new Map<string, number>();
    const c = consumer<number, number>({
      name: unique('drained'),
      tenant: 'none',
      keys: () => ['a'],
      open: async function* ({ cursor, signal }) {
        for (let n = (cursor ?? 0) + 1; !signal.aborted; n += 1) yield n;
      },
      handle: async ({ items, signal }) => {
        if (items[0] === 1) {
          handledIds.push(...items);
          return items[items.length - 1]!;
        }
        inHandle = true; // the second batch waits for the drain, as a slow write would
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
        return items[items.length - 1]!;
      },
      cursor: { load: (key) => cursors.get(key) ?? null, save: (key, next) => void cursors.set(key, next) },
      batch: 2,
      retry: { attempts: 1 },
    });
    const registry = new Map([[c.name, c]]);
    const worker = createWorker({
      driver,
      context: () => ({}),
      registry: { get: (name) => registry.get(name) },
      queues: [c.queue],
      handleSignals: false,
      logger: silentLogger,
      drainTimeoutMs: 5_000,
    });
    const { id } = await driver.enqueue(prepareEnqueue(c, { key: 'a' }));
    await worker.start();
    await until(() => inHandle);
    await worker.drain();
    const row = await driver.introspect!.get(id);
    expect(row?.state).toBe('ready');
    expect(row?.attempts).toBe(0);
    expect(handledIds).toEqual([1, 2]);
    expect(cursors.get('a')).toBe(2);
    await driver.close();
  });
});
