import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Vitest global setup: the CLI tests spawn the built binary (`node dist/cli.js`), so build this
 * package and the packages it references first. `tsc -b` is incremental: a no-op when dist is fresh.
 */
export async function setup(): Promise<void> {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '-b'], { cwd: packageDir });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc -b failed, so the x-jobs binary cannot be tested:\n${stdout}${stderr}`);
  }
}
