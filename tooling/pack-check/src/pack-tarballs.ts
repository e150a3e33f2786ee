import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from './run-command.js';
import type { WorkspacePackage } from './workspace-packages.js';

/** A packed package: its tarball and what the tarball holds. */
export interface Tarball {
  readonly name: string;
  readonly path: string;
  /** The manifest as packed (workspace: ranges rewritten, publishConfig applied). */
  readonly manifest: Record<string, unknown> & { name: string; exports?: Record<string, unknown> };
  /** Paths inside the tarball, `package/` removed. */
  readonly files: ReadonlySet<string>;
}

/** `pnpm pack`s each package into `outDir` (pnpm rewrites `workspace:` and `catalog:` ranges). */
export async function packAll(packages: readonly WorkspacePackage[], outDir: string): Promise<Tarball[]> {
  const tarballs: Tarball[] = [];
  for (const pkg of packages) {
    const before = new Set(await readdir(outDir));
    await runCommand('pnpm', ['pack', '--pack-destination', outDir], { cwd: pkg.dir });
    const made = (await readdir(outDir)).find((file) => !before.has(file) && file.endsWith('.tgz'));
    if (made === undefined) throw new Error(`pnpm pack of ${pkg.name} made no tarball`);
    const path = join(outDir, made);
    const listing = execFileSync('tar', ['tzf', path], { encoding: 'utf8' });
    const files = new Set(
      listing
        .split('\n')
        .filter(Boolean)
        .map((file) => file.replace(/^package\//, '')),
    );
    const manifest = JSON.parse(
      execFileSync('tar', ['xzfO', path, 'package/package.json'], { encoding: 'utf8' }),
    );
    tarballs.push({ name: pkg.name, path, manifest, files });
  }
  return tarballs;
}

/** The import specifiers of a packed package's entries: `@x/jobs-core`, `@x/jobs-core/driver`. */
export function entrySpecifiers(tarball: Tarball): string[] {
  return Object.keys(tarball.manifest.exports ?? { '.': '' })
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? tarball.name : `${tarball.name}/${key.slice(2)}`));
}
