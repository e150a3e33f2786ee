import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import type { Tarball } from './pack-tarballs.js';
import { runCommand } from './run-command.js';

const require = createRequire(import.meta.url);

/**
 * publint (warnings count as errors) on one tarball: answers one line per message, empty when
 * clean.
 */
export async function publintProblems(tarball: Tarball): Promise<string[]> {
  const bytes = await readFile(tarball.path);
  const tarballBuffer = bytes.buffer.slice(
    bytes.byteOffset,
    bytes.byteOffset + bytes.byteLength,
  ) as ArrayBuffer;
  const { messages, pkg } = await publint({
    pack: { tarball: tarballBuffer },
    level: 'warning',
    strict: true,
  });
  return messages.map(
    (message) => `publint ${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`,
  );
}

/**
 * `@arethetypeswrong/cli` with the `esm-only` profile (CommonJS callers are checked by a real
 * `require()` instead): answers its report when it finds a problem, empty when clean.
 */
export async function attwProblems(tarball: Tarball): Promise<string[]> {
  const cli = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist/index.js');
  try {
    await runCommand(
      process.execPath,
      [cli, tarball.path, '--profile', 'esm-only', '--format', 'ascii', '--no-color'],
      {
        cwd: process.cwd(),
      },
    );
    return [];
  } catch (error) {
    return [`attw: ${(error as Error).message}`];
  }
}
