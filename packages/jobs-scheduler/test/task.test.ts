import { defineJobs, job, resetJobDriver, resetRegistry, setJobDriver } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { task } from '../src/task.js';

const sendDigest = job({
  name: 'scheduler-test.sendDigest',
  input: z.object({ list: z.string() }),
  idempotencyKey: ({ list }) => `digest:${list}`,
  tenant: 'none',
  run: async () => undefined,
});
const rollup = job({
  name: 'task-test-rollup',
  input: z.object({}),
  idempotencyKey: () => 'rollup',
  tenant: 'none',
  run: async () => undefined,
});

const valid = { cron: '0 3 * * *', tz: 'UTC', enqueue: () => [[sendDigest, { list: 'all' }]] as const };

afterEach(() => {
  resetJobDriver();
  resetRegistry();
});

describe('task()', () => {
  it('describes itself: kind, name, cron, canonical tz, catch-up defaults and jobs in declaration order', () => {
    const nightly = task({
      name: 'task-test-nightly',
      cron: '0 3 * * *',
      tz: 'europe/berlin',
      enqueue: () => [
        [rollup, {}],
        [sendDigest, { list: 'all' }],
      ],
    });
    expect(nightly.name).toBe('task-test-nightly');
    expect(nightly.describe()).toEqual({
      kind: 'task',
      name: 'task-test-nightly',
      cron: '0 3 * * *',
      tz: 'Europe/Berlin',
      catchUp: 'skip',
      maxCatchUp: 10,
      jobs: ['task-test-rollup', sendDigest.name],
    });
  });

  it('answers its entries', () => {
    const handle = task({ ...valid, catchUp: 'run-all', maxCatchUp: 3 });
    expect(handle.entries()).toEqual([[sendDigest, { list: 'all' }]]);
    expect(handle.describe()).toMatchObject({ catchUp: 'run-all', maxCatchUp: 3 });
  });

  it('takes an anonymous name until defineJobs stamps the export name; a declared name stays', () => {
    const hourlyReport = task(valid);
    expect(hourlyReport.name).toMatch(/^anonymous-task-\d+$/);
    defineJobs({ tasks: [{ hourlyReport }] });
    expect(hourlyReport.name).toBe('hourlyReport');
    expect(hourlyReport.describe().name).toBe('hourlyReport');
  });

  it('refuses a tz the runtime does not know, or none', () => {
    expect(() => task({ ...valid, tz: 'Bogota' })).toThrow(
      expect.objectContaining({ code: 'X_TASK_TZ_INVALID' }),
    );
    expect(() => task({ ...valid, tz: undefined as unknown as string })).toThrow(
      expect.objectContaining({ code: 'X_TASK_TZ_INVALID' }),
    );
  });

  it('refuses an invalid cron, naming the field', () => {
    expect(() => task({ ...valid, cron: '0 3 * *' })).toThrow(
      expect.objectContaining({
        code: 'X_TASK_CRON_INVALID',
        meta: expect.objectContaining({ field: 'cron' }),
      }),
    );
  });

  it.each([
    ['catchUp', { catchUp: 'latest' }],
    ['maxCatchUp', { maxCatchUp: 0 }],
    ['maxCatchUp', { maxCatchUp: 2.5 }],
    ['maxCatchUp', { maxCatchUp: Number.NaN }],
    ['enqueue', { enqueue: undefined }],
    ['name', { name: '' }],
  ])('refuses an invalid %s with X_TASK_DECLARATION_INVALID', (field, override) => {
    expect(() => task({ ...valid, ...(override as object) })).toThrow(
      expect.objectContaining({
        code: 'X_TASK_DECLARATION_INVALID',
        meta: expect.objectContaining({ field }),
      }),
    );
  });

  it('refuses a second definition with the same name: at declaration', () => {
    task({ ...valid, name: 'task-test-once' });
    expect(() => task({ ...valid, name: 'task-test-once' })).toThrow(
      expect.objectContaining({ code: 'X_JOB_DUPLICATE' }),
    );
  });

  it('does not call enqueue at declaration, and refuses entries that are not [job, input] pairs when read', () => {
    let calls = 0;
    const handle = task({
      ...valid,
      enqueue: () => {
        calls += 1;
        return [[{ name: 'not-a-job' }, {}]] as never;
      },
    });
    expect(calls).toBe(0);
    expect(() => handle.entries()).toThrow(
      expect.objectContaining({
        code: 'X_TASK_DECLARATION_INVALID',
        meta: expect.objectContaining({ index: 0 }),
      }),
    );
  });

  it('enqueue() fires every entry now through the ambient facade, with each job own key', async () => {
    const driver = memoryJobDriver();
    setJobDriver(driver);
    const handle = task({
      ...valid,
      enqueue: () => [
        [sendDigest, { list: 'a' }],
        [sendDigest, { list: 'b' }],
      ],
    });
    const results = await handle.enqueue({ priority: 5 });
    expect(results).toHaveLength(2);
    const rows = await Promise.all(results.map((result) => driver.introspect!.get(result.id)));
    expect(rows.map((row) => [row?.idempotencyKey, row?.priority])).toEqual([
      ['digest:a', 5],
      ['digest:b', 5],
    ]);
    expect((await handle.enqueue()).every((result) => result.deduped)).toBe(true);
  });

  it('enqueue() with no driver installed is X_DRIVER_UNAVAILABLE, never a dropped job', async () => {
    await expect(task(valid).enqueue()).rejects.toMatchObject({ code: 'X_DRIVER_UNAVAILABLE' });
  });
});
