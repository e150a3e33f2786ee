import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../../test/child-process.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import type { PostgresJobDriver } from '../sql-job-driver.js';
import { LOCK_FILE_NAME, lockDataDir, pgliteJobDriver } from './index.js';

// One on-disk PGlite instance for the file (a PGlite costs ~700 MB and seconds to open).
let dataDir: string;
let driver: PostgresJobDriver;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'x-jobs-pglite-'));
  driver = await pgliteJobDriver({ dataDir });
}, 180_000); // starting PGlite takes seconds, and far longer while the whole suite runs
afterAll(async () => {
  await driver.close();
  await rm(dataDir, { recursive: true, force: true });
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('pgliteJobDriver on a data directory', () => {
  it('runs jobs end to end, with an in-process wake', async () => {
    expect(driver.name).toBe('pglite');
    const heard: string[] = [];
    const unsubscribe = driver.wake!.subscribe((queue) => heard.push(queue));
    const request = enqueueRequest({ queue: 'disk' });
    await driver.enqueue(request);
    await expect.poll(() => heard, { timeout: 10_000 }).toContain('disk');
    unsubscribe();
    const [job] = await driver.claim({
      queues: ['disk'],
      limit: 5,
      workerId: 'w',
      visibilityTimeoutMs: 10_000,
    });
    expect(job?.id).toBe(request.id);
    expect(await driver.ack(job!.id, job!.claim, { ok: true })).toBe(true);
    expect((await driver.introspect.get(request.id))?.result).toEqual({ ok: true });
  });

  it('holds <dataDir>/.x-jobs.lock: a second opener in this process is refused', async () => {
    expect(await exists(join(dataDir, LOCK_FILE_NAME))).toBe(true);
    await expect(pgliteJobDriver({ dataDir })).rejects.toMatchObject({ code: 'X_PGLITE_LOCKED' });
  });

  // A child process starts tsx and loads PGlite's module: seconds, and far longer under a full run.
  it('refuses a second process opening the same directory', async () => {
    expect(await runScript(join(import.meta.dirname, '../../test/open-pglite.ts'), [dataDir])).toBe(
      'X_PGLITE_LOCKED',
    );
  }, 90_000);

  it('a lock taken with the exported lockDataDir (a caller opening PGlite itself) refuses the driver, here and in another process', async () => {
    const callersDir = await mkdtemp(join(tmpdir(), 'x-jobs-pglite-caller-'));
    try {
      const lock = await lockDataDir(callersDir);
      await expect(pgliteJobDriver({ dataDir: callersDir })).rejects.toMatchObject({
        code: 'X_PGLITE_LOCKED',
      });
      expect(await runScript(join(import.meta.dirname, '../../test/open-pglite.ts'), [callersDir])).toBe(
        'X_PGLITE_LOCKED',
      );
      await lock.release();
      expect(await exists(join(callersDir, LOCK_FILE_NAME))).toBe(false);
    } finally {
      await rm(callersDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('refuses dataDir and pglite together, and an empty dataDir', async () => {
    await expect(pgliteJobDriver({ dataDir, pglite: {} as PGlite })).rejects.toMatchObject({
      code: 'X_PG_OPTIONS_INVALID',
    });
    await expect(pgliteJobDriver({ dataDir: '' })).rejects.toMatchObject({ code: 'X_PG_OPTIONS_INVALID' });
  });
});
