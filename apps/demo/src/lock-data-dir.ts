import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LOCK_FILE_NAME } from '@x/jobs-driver-pg/pglite';

/**
 * Holds the PGlite data directory for this process, in the same lock file (`.x-jobs.lock`, the
 * owner's pid and a token) `pgliteJobDriver({ dataDir })` and `x-jobs` use, so neither opens the
 * directory while the demo has it: PGlite takes no lock itself, and two processes on one
 * directory lose writes silently. The demo opens PGlite itself (its own tables, the outbox and
 * the queue share one instance), so it takes the lock itself. A lock whose pid is dead is stale
 * and taken over. Answers the release.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const token = randomBytes(8).toString('hex');
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const aside = `${file}.${process.pid}.${token}`;
    await writeFile(aside, `${process.pid}\n${token}\n`);
    try {
      await link(aside, file);
      return async () => {
        const [, owner] = (await readFile(file, 'utf8').catch(() => '')).split('\n');
        if (owner === token) await unlink(file).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(aside).catch(() => undefined);
    }
    const [pid = ''] = (await readFile(file, 'utf8').catch(() => '')).split('\n');
    if (isAlive(Number(pid))) {
      throw new Error(
        `${dataDir} is in use by process ${pid} (another demo, or x-jobs dev). Stop it, or set X_DEMO_DATA_DIR to another directory.`,
      );
    }
    await unlink(file).catch(() => undefined);
  }
  throw new Error(`Could not take the lock on ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
