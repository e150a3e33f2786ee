import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type InstallLine, readInstallLines } from './install-lines.js';

/** A publishable package of the workspace. */
export interface WorkspacePackage {
  readonly name: string;
  readonly dir: string;
  /** The `npm install` lines of its README's Install section. */
  readonly installLines: readonly InstallLine[];
}

/** Every `packages/*` whose package.json is not `"private": true`, sorted by name. */
export async function publishablePackages(root: string): Promise<WorkspacePackage[]> {
  const found: WorkspacePackage[] = [];
  for (const entry of await readdir(join(root, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(root, 'packages', entry.name);
    const manifest = await readFile(join(dir, 'package.json'), 'utf8').then(
      (text) => JSON.parse(text) as { name: string; private?: boolean },
      () => undefined,
    );
    if (manifest === undefined || manifest.private === true) continue;
    const readme = await readFile(join(dir, 'README.md'), 'utf8').catch(() => '');
    found.push({ name: manifest.name, dir, installLines: readInstallLines(readme) });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
