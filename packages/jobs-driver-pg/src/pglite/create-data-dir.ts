import { mkdir } from 'node:fs/promises';
import { pgError } from '../errors.js';

/**
 * Creates the PGlite data directory (and its parents) when missing. A path that cannot be a
 * directory — under a regular file (`ENOTDIR`), an existing file (`EEXIST`), no permission
 * (`EACCES`, `EPERM`), a read-only file system (`EROFS`) — is `X_PGLITE_DATA_DIR_INVALID` with
 * `meta.dataDir` and the system's `meta.errno`, not a raw Node error.
 */
export async function createDataDir(dataDir: string): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true });
  } catch (error) {
    const errno = (error as { code?: unknown }).code;
    throw pgError(
      'X_PGLITE_DATA_DIR_INVALID',
      `The PGlite data directory ${dataDir} cannot be created (${String(errno ?? error)}); pass a dataDir that is, or can become, a writable directory.`,
      { dataDir, errno: typeof errno === 'string' ? errno : null },
      error,
    );
  }
}
