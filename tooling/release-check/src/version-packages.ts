// pnpm version-packages (the root script): `changeset version` on the pending changesets, then the
// `@x/*` peer ranges of each package it released start at the versions released with it. See
// README.md "Releasing" and ../README.md. Run at the repository root; tooling/release-check runs it
// in a scratch copy on every `pnpm test`.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PeerManifest, raisePeerFloors } from './peer-range.js';

const root = process.cwd();

/** Every `packages/*` manifest by its directory. */
function manifests(): Map<string, PeerManifest & { version: string }> {
  const found = new Map<string, PeerManifest & { version: string }>();
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(root, 'packages', entry.name, 'package.json');
    found.set(file, JSON.parse(readFileSync(file, 'utf8')));
  }
  return found;
}

const before = new Map([...manifests().values()].map((m) => [m.name, m.version]));
const changeset = join(root, 'node_modules', '.bin', 'changeset');
const run = spawnSync(changeset, ['version'], { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

const after = manifests();
const versions = new Map([...after.values()].map((m) => [m.name, m.version]));
for (const [file, manifest] of after) {
  if (before.get(manifest.name) === manifest.version) continue;
  const changed = raisePeerFloors(manifest, versions);
  if (changed.length === 0) continue;
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${manifest.name}@${manifest.version} peers: ${changed.join(', ')}`);
}
