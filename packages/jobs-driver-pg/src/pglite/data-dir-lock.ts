import { randomBytes } from 'node:crypto';
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pgError } from '../errors.js';
import { createDataDir } from './create-data-dir.js';

/** The lock file inside a PGlite data directory. */
export const LOCK_FILE_NAME = '.x-jobs.lock';
/** A takeover marker older than this belongs to a process that died mid-takeover. */
const TAKEOVER_STALE_MS = 10_000;

/** An exclusive hold on a PGlite data directory, answered by {@link lockDataDir}. */
export interface DataDirLock {
  /** `<dataDir>/.x-jobs.lock`. */
  readonly path: string;
  /** Removes the lock file if this hold still owns it. Safe to call twice. */
  release(): Promise<void>;
}

/**
 * Takes the exclusive lock on a PGlite data directory (creating the directory when missing), the
 * one `pgliteJobDriver({ dataDir })` and `x-jobs` take: a file holding the owner's pid and a
 * random token, created atomically (written aside, then hard-linked into place, which fails if
 * the file exists). While the recorded pid is alive — this process included — a second opener is
 * refused with `X_PGLITE_LOCKED` (`meta.pid` names the holder): PGlite takes no lock itself, and
 * two processes on one directory silently lose writes. A lock whose pid is dead is stale and taken
 * over, one taker at a time (guarded by a `.takeover` marker created the same way).
 *
 * Take it yourself when you open the PGlite instance yourself (to share it between your own
 * tables and `pgliteJobDriver({ pglite })`), and `release()` it after closing the instance:
 *
 * ```ts
 * const lock = await lockDataDir('.x-jobs/db');
 * const pglite = await PGlite.create('.x-jobs/db');
 * const driver = await pgliteJobDriver({ pglite });
 * // … on shutdown: await driver.close(); await pglite.close(); await lock.release();
 * ```
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await createDataDir(dataDir);
  const path = join(dataDir, LOCK_FILE_NAME);
  const token = randomBytes(8).toString('hex');
  const content = `${process.pid}\n${token}\n`;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    if (await createExclusive(path, content)) return ownedLock(path, token);
    const owner = await readOwner(path);
    if (owner === undefined) continue; // released meanwhile: try again
    if (isAlive(owner.pid)) {
      throw pgError(
        'X_PGLITE_LOCKED',
        `The PGlite data directory ${dataDir} is in use by process ${owner.pid}; stop it first (or use another dataDir).`,
        { dataDir, pid: owner.pid },
      );
    }
    await takeOver(path, owner.token);
  }
  throw pgError('X_PGLITE_LOCKED', `Could not take the lock on ${dataDir}: it keeps changing hands.`, {
    dataDir,
  });
}

function ownedLock(path: string, token: string): DataDirLock {
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      const owner = await readOwner(path);
      if (owner?.token === token) await unlink(path).catch(() => {});
    },
  };
}

/** Creates `path` with `content` only if it does not exist, never leaving it empty or partial. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(aside, content);
  try {
    await link(aside, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(aside).catch(() => {});
  }
}

async function readOwner(path: string): Promise<{ pid: number; token: string } | undefined> {
  try {
    const [pid = '', token = ''] = (await readFile(path, 'utf8')).split('\n');
    return { pid: Number(pid), token };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** True unless the pid names no process (EPERM means alive, owned by another user). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a stale lock whose token is still `staleToken`, as the only taker. */
async function takeOver(path: string, staleToken: string): Promise<void> {
  const marker = `${path}.takeover`;
  if (!(await createExclusive(marker, `${process.pid}\n`))) {
    const age = await stat(marker).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (age > TAKEOVER_STALE_MS) await unlink(marker).catch(() => {});
    else await new Promise((resolve) => setTimeout(resolve, 50));
    return;
  }
  try {
    const owner = await readOwner(path);
    if (owner?.token === staleToken) await unlink(path).catch(() => {});
  } finally {
    await unlink(marker).catch(() => {});
  }
}
