import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { npmEnvironment } from './scratch-app.js';

/** What one `x-jobs … --json` run answered: its exit code and the error code it printed. */
async function runXJobs(
  dir: string,
  args: readonly string[],
): Promise<{ code: number | null; error?: string; meta?: Record<string, unknown> }> {
  const bin = join(dir, 'node_modules', '.bin', 'x-jobs');
  const child = spawn(bin, [...args, '--json'], {
    cwd: dir,
    env: npmEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const body = JSON.parse(stdout) as { error?: { code: string; meta?: Record<string, unknown> } };
    return {
      code,
      ...(body.error === undefined ? {} : { error: body.error.code, meta: body.error.meta ?? {} }),
    };
  } catch {
    return { code };
  }
}

/**
 * The CLI installed with its own README line alone (no driver, no OpenTelemetry SDK): `x-jobs ls`
 * without `--data-dir` is `X_CLI_DATA_DIR_MISSING` naming the flag and creates no `./.x-jobs`;
 * `--otel console` is `X_CLI_PACKAGE_MISSING` naming `@opentelemetry/sdk-node`. Throws on the first
 * difference; answers a summary.
 */
export async function checkCliFirstContact(dir: string): Promise<string> {
  const before = new Set(await readdir(dir));
  const ls = await runXJobs(dir, ['ls']);
  if (ls.code !== 1 || ls.error !== 'X_CLI_DATA_DIR_MISSING' || ls.meta?.flag !== '--data-dir') {
    throw new Error(`x-jobs ls without --data-dir answered ${JSON.stringify(ls)}`);
  }
  const created = (await readdir(dir)).filter((name) => !before.has(name));
  if (created.length > 0) throw new Error(`x-jobs ls created ${created.join(', ')}`);
  const otel = await runXJobs(dir, [
    'worker',
    '--driver',
    'memory',
    '--otel',
    'console',
    '--module',
    './none.mjs',
  ]);
  if (
    otel.code !== 1 ||
    otel.error !== 'X_CLI_PACKAGE_MISSING' ||
    otel.meta?.package !== '@opentelemetry/sdk-node'
  ) {
    throw new Error(`x-jobs worker --otel console without the SDK answered ${JSON.stringify(otel)}`);
  }
  return 'x-jobs ls without --data-dir: X_CLI_DATA_DIR_MISSING, nothing created; --otel without the SDK: X_CLI_PACKAGE_MISSING';
}
