// What changesets itself does with this repository's .changeset/config.json and the peer ranges of
// README "Releasing", on a small workspace of the same shape: a core every package peers on, a
// dashboard, and a CLI with the dashboard as a dependency and a driver as an optional peer.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspacePeerRange } from './peer-range.js';

const root = resolve(import.meta.dirname, '../../..');
const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The fixture's packages at 0.1.0, with peers written as `peer` writes them. */
function manifests(peer: (version: string) => string) {
  return {
    core: { name: '@x/jobs-core', version: '0.1.0' },
    driver: {
      name: '@x/jobs-driver-pg',
      version: '0.1.0',
      peerDependencies: { '@x/jobs-core': peer('0.1.0') },
    },
    dashboard: {
      name: '@x/jobs-dashboard',
      version: '0.1.0',
      peerDependencies: { '@x/jobs-core': peer('0.1.0') },
    },
    cli: {
      name: '@x/jobs-cli',
      version: '0.1.0',
      dependencies: { '@x/jobs-dashboard': 'workspace:^' },
      peerDependencies: { '@x/jobs-core': peer('0.1.0'), '@x/jobs-driver-pg': peer('0.1.0') },
      peerDependenciesMeta: { '@x/jobs-driver-pg': { optional: true } },
    },
  };
}

/**
 * Runs `changeset version` on a fixture holding `changeset` and the repository's changesets config
 * (its ignore list dropped: the fixture has no apps), and answers each package's new version.
 */
async function version(changeset: string, peer = workspacePeerRange): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'x-jobs-release-policy-'));
  made.push(dir);
  const config = JSON.parse(await readFile(join(root, '.changeset', 'config.json'), 'utf8'));
  await mkdir(join(dir, '.changeset'));
  await writeFile(join(dir, '.changeset', 'config.json'), JSON.stringify({ ...config, ignore: [] }));
  await writeFile(join(dir, '.changeset', 'scenario.md'), `---\n${changeset}\n---\n\nScenario.\n`);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true }));
  await writeFile(join(dir, 'pnpm-workspace.yaml'), 'packages:\n  - "packages/*"\n');
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'));
  const packages = manifests(peer);
  for (const [folder, manifest] of Object.entries(packages)) {
    await mkdir(join(dir, 'packages', folder), { recursive: true });
    await writeFile(join(dir, 'packages', folder, 'package.json'), JSON.stringify(manifest));
  }
  const run = spawnSync(join(root, 'node_modules', '.bin', 'changeset'), ['version'], {
    cwd: dir,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  const versions: Record<string, string> = {};
  for (const folder of Object.keys(packages)) {
    const manifest = JSON.parse(await readFile(join(dir, 'packages', folder, 'package.json'), 'utf8'));
    versions[manifest.name] = manifest.version;
  }
  return versions;
}

describe('changesets with this repository config and peer ranges', { timeout: 120_000 }, () => {
  it('releases a core minor alone: its dependents stay as they are', async () => {
    expect(await version('"@x/jobs-core": minor')).toEqual({
      '@x/jobs-core': '0.2.0',
      '@x/jobs-driver-pg': '0.1.0',
      '@x/jobs-dashboard': '0.1.0',
      '@x/jobs-cli': '0.1.0',
    });
  });

  it('releases a core patch alone', async () => {
    expect(await version('"@x/jobs-core": patch')).toEqual({
      '@x/jobs-core': '0.1.1',
      '@x/jobs-driver-pg': '0.1.0',
      '@x/jobs-dashboard': '0.1.0',
      '@x/jobs-cli': '0.1.0',
    });
  });

  it('releases every dependent as a major when core asks a major', async () => {
    expect(await version('"@x/jobs-core": major')).toEqual({
      '@x/jobs-core': '1.0.0',
      '@x/jobs-driver-pg': '1.0.0',
      '@x/jobs-dashboard': '1.0.0',
      '@x/jobs-cli': '1.0.0',
    });
  });

  it('releases a dependency minor with a patch of the package whose range must move', async () => {
    expect(await version('"@x/jobs-dashboard": minor')).toEqual({
      '@x/jobs-core': '0.1.0',
      '@x/jobs-driver-pg': '0.1.0',
      '@x/jobs-dashboard': '0.2.0',
      '@x/jobs-cli': '0.1.1',
    });
  });

  it('would release every dependent of a core minor as a major with caret peers (why the ranges)', async () => {
    const versions = await version('"@x/jobs-core": minor', () => 'workspace:^');
    expect(versions['@x/jobs-driver-pg']).toBe('1.0.0');
  });
});
