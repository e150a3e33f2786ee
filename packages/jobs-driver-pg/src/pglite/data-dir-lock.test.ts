import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPid, spawnIdle } from '../../test/child-process.js';
import { LOCK_FILE_NAME, lockDataDir } from './data-dir-lock.js';

let dataDir: string;
const lockPath = () => join(dataDir, LOCK_FILE_NAME);
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { code?: string }) => error.code,
  );

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'x-jobs-lock-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the PGlite data-directory lock', () => {
  it('writes the owner pid, refuses a second opener in this process, and is freed by release', async () => {
    const lock = await lockDataDir(join(dataDir, 'nested', 'db'));
    expect((await readFile(lock.path, 'utf8')).split('\n')[0]).toBe(String(process.pid));
    expect(await codeOf(lockDataDir(join(dataDir, 'nested', 'db')))).toBe('X_PGLITE_LOCKED');
    await lock.release();
    await lock.release();
    const again = await lockDataDir(join(dataDir, 'nested', 'db'));
    await again.release();
  });

  it('refuses while another live process holds it, naming its pid', async () => {
    const owner = spawnIdle();
    try {
      await writeFile(lockPath(), `${owner.pid}\nsomeone-else\n`);
      const refusal = await lockDataDir(dataDir).then(
        () => undefined,
        (error: { code: string; meta: { pid: number } }) => error,
      );
      expect(refusal).toMatchObject({ code: 'X_PGLITE_LOCKED', meta: { pid: owner.pid } });
      expect(await readFile(lockPath(), 'utf8')).toBe(`${owner.pid}\nsomeone-else\n`);
    } finally {
      owner.kill();
    }
  });

  it('takes over a stale lock whose owner died', async () => {
    await writeFile(lockPath(), `${await deadPid()}\nstale-token\n`);
    const lock = await lockDataDir(dataDir);
    expect((await readFile(lockPath(), 'utf8')).split('\n')[0]).toBe(String(process.pid));
    await lock.release();
  });

  it('release leaves alone a lock file that is no longer its own', async () => {
    const lock = await lockDataDir(dataDir);
    await writeFile(lockPath(), `${process.pid}\nanother-holder\n`);
    await lock.release();
    expect(await readFile(lockPath(), 'utf8')).toBe(`${process.pid}\nanother-holder\n`);
  });
});
