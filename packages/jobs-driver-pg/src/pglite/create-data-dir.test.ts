import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataDir } from './create-data-dir.js';
import { pgliteJobDriver } from './pglite-job-driver.js';

let root: string;
let file: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-jobs-data-dir-'));
  file = join(root, 'a-regular-file');
  await writeFile(file, 'not a directory');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the PGlite data directory', () => {
  it('is created with its parents when missing', async () => {
    await expect(createDataDir(join(root, 'nested', 'db'))).resolves.toBeUndefined();
  });

  it('under a regular file, or being one, is X_PGLITE_DATA_DIR_INVALID, not ENOTDIR', async () => {
    await expect(createDataDir(join(file, 'db'))).rejects.toMatchObject({
      code: 'X_PGLITE_DATA_DIR_INVALID',
      meta: { errno: 'ENOTDIR' },
    });
    await expect(createDataDir(file)).rejects.toMatchObject({ code: 'X_PGLITE_DATA_DIR_INVALID' });
  });

  it('refuses pgliteJobDriver with the code before PGlite starts', async () => {
    await expect(pgliteJobDriver({ dataDir: join(file, 'db') })).rejects.toMatchObject({
      code: 'X_PGLITE_DATA_DIR_INVALID',
      meta: { dataDir: join(file, 'db') },
    });
  });
});
