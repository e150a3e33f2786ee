import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCommand } from '@x/pack-check/run-command';
import { npmEnvironment } from '@x/pack-check/scratch-app';

/**
 * Copies the repository at `root` into `into` as the working tree has it (tracked and untracked
 * files git does not ignore: pending changesets that are not committed yet count), plus each
 * package's built `dist/`, then installs it from pnpm's store (prefer-offline) so `pnpm pack` can rewrite
 * `workspace:` ranges there. The repository itself is never written.
 */
export async function copyRepository(root: string, into: string): Promise<void> {
  const listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of listing.split('\0').filter(Boolean)) {
    const from = join(root, file);
    // A file deleted in the working tree but still tracked is not part of the tree.
    const kind = await stat(from).catch(() => undefined);
    if (kind === undefined || !kind.isFile()) continue;
    await mkdir(dirname(join(into, file)), { recursive: true });
    await cp(from, join(into, file));
  }
  for (const entry of await readdir(join(root, 'packages'), { withFileTypes: true })) {
    const dist = join(root, 'packages', entry.name, 'dist');
    if (entry.isDirectory() && (await stat(dist).catch(() => undefined))?.isDirectory())
      await cp(dist, join(into, 'packages', entry.name, 'dist'), { recursive: true });
  }
  await runCommand(
    'pnpm',
    [
      'install',
      '--prefer-offline',
      '--frozen-lockfile',
      '--ignore-scripts',
      '--filter',
      '.',
      '--filter',
      './packages/*',
    ],
    { cwd: into, env: npmEnvironment(), timeoutMs: 180_000 },
  );
}
