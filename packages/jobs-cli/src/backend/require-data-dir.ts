import { stat } from 'node:fs/promises';
import path from 'node:path';
import { cliError } from '../errors.js';
import type { BackendChoice } from './backend-choice.js';

/**
 * Refuses a PGlite backend whose data directory does not exist, before anything opens it (opening
 * would create an empty database): `X_CLI_DATA_DIR_MISSING` with `meta.dataDir` and a hint naming
 * `--data-dir`. Any other backend passes.
 */
export async function requireExistingDataDir(choice: BackendChoice, cwd: string): Promise<void> {
  if (choice.kind !== 'pglite') return;
  const isDir = await stat(choice.dataDir).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (isDir) return;
  const shown = path.relative(cwd, choice.dataDir) || '.';
  throw cliError('X_CLI_DATA_DIR_MISSING', `No PGlite database at ${shown}: nothing was created.`, {
    dataDir: choice.dataDir,
    flag: '--data-dir',
    hint: 'Pass --data-dir <dir> where `x-jobs dev` or `x-jobs migrate` made it, or pick a server with --database-url / --redis-url.',
  });
}
