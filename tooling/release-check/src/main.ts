// pnpm release-check (a step of `pnpm test`): the release dry run. See ../README.md.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packAll, type Tarball } from '@x/pack-check/pack-tarballs';
import { runCommand } from '@x/pack-check/run-command';
import { npmEnvironment } from '@x/pack-check/scratch-app';
import { publishablePackages } from '@x/pack-check/workspace-packages';
import { internalEdges, judgeBumps, type VersionedManifest } from './bump-rules.js';
import { changelogProblems } from './changelog-rules.js';
import { Checks } from './checks.js';
import { cliVersion, installTogether } from './install-together.js';
import { askedBumps, readPendingChangesets } from './pending-changesets.js';
import { type PackedManifest, publishedRangeProblems, readmeVersionProblems } from './published-ranges.js';
import { copyRepository } from './scratch-repo.js';

const here = import.meta.dirname;
const root = resolve(here, '../../..');
const checks = new Checks();
const work = await mkdtemp(join(tmpdir(), 'x-jobs-release-check-'));
const repo = join(work, 'repo');
console.log(`release-check: scratch copy in ${repo}`);

/** The package.json of each publishable package of `at`, by name. */
async function manifestsOf(at: string): Promise<Map<string, VersionedManifest>> {
  const found = new Map<string, VersionedManifest>();
  for (const pkg of await publishablePackages(at)) {
    found.set(pkg.name, JSON.parse(await readFile(join(pkg.dir, 'package.json'), 'utf8')));
  }
  return found;
}

/** Packs the named packages of the copy into `work/<into>`. */
async function pack(names: ReadonlySet<string>, into: string): Promise<Map<string, Tarball>> {
  await mkdir(join(work, into), { recursive: true });
  const packages = (await publishablePackages(repo)).filter((pkg) => names.has(pkg.name));
  const tarballs = await packAll(packages, join(work, into));
  return new Map(tarballs.map((tarball) => [tarball.name, tarball]));
}

const copied = await checks.run('the working tree copied and installed', async () => {
  await copyRepository(root, repo);
  return undefined;
});
if (copied) await dryRun();
if (process.env.RELEASE_CHECK_KEEP === undefined) await rm(work, { recursive: true, force: true });
checks.close();

async function dryRun(): Promise<void> {
  const changesets = await readPendingChangesets(repo);
  const asked = askedBumps(changesets);
  const before = await manifestsOf(repo);
  console.log(`release-check: ${changesets.length} pending changesets, ${before.size} publishable packages`);

  await checks.run('turbo builds every publishable package first', async () => {
    const own = JSON.parse(await readFile(join(here, '..', 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>;
    };
    const missing = [...before.keys()].filter((name) => own.devDependencies?.[name] === undefined);
    if (missing.length > 0) {
      const lines = missing.map((name) => `"${name}": "workspace:*"`).join(', ');
      throw new Error(`add to tooling/release-check/package.json devDependencies: ${lines}`);
    }
    return undefined;
  });

  // What is published now: an unreleased package keeps the manifest it was packed with before.
  const published = await pack(new Set(before.keys()), 'before');
  const versioned = await checks.run('pnpm version-packages in the copy', async () => {
    const { stdout } = await runCommand('pnpm', ['run', '--silent', 'version-packages'], {
      cwd: repo,
      env: npmEnvironment(),
    });
    const floors = stdout.split('\n').filter((line) => line.includes(' peers: ')).length;
    return `changeset version, then the @x peer floors of ${floors} released packages`;
  });
  if (!versioned) return;

  const after = await manifestsOf(repo);
  const versions = new Map([...after].map(([name, manifest]) => [name, manifest.version]));
  const released = new Set(
    [...after].filter(([name, m]) => before.get(name)?.version !== m.version).map(([n]) => n),
  );
  const fresh = await pack(released, 'after');
  const verdicts = judgeBumps({
    before: new Map([...before].map(([name, manifest]) => [name, manifest.version])),
    after: versions,
    asked,
    edges: internalEdges([...before.values()]),
  });

  for (const verdict of verdicts) {
    const label = `${verdict.name} ${verdict.from} → ${verdict.to}`;
    await checks.run(`${label}: no bump larger than asked`, async () => {
      if (verdict.problems.length > 0) throw new Error(verdict.problems.join('\n'));
      const why = verdict.reasons.length === 0 ? '' : `; ${verdict.reasons.join('; ')}`;
      return `${verdict.bump}, its changesets ask ${verdict.asked}${why}`;
    });
  }

  for (const name of released) {
    const verdict = verdicts.find((v) => v.name === name);
    const summaries = changesets
      .filter((changeset) => changeset.releases.some((release) => release.name === name))
      .map((changeset) => changeset.summary);
    await checks.run(`${name}: CHANGELOG.md of ${versions.get(name)}`, async () => {
      const dir = (await publishablePackages(repo)).find((pkg) => pkg.name === name)?.dir as string;
      const text = await readFile(join(dir, 'CHANGELOG.md'), 'utf8');
      const bump = verdict?.bump ?? 'none';
      const problems = changelogProblems(text, {
        name,
        version: versions.get(name) as string,
        bump,
        summaries,
      });
      if (problems.length > 0) throw new Error(problems.join('\n'));
      return `${summaries.length} changesets under ## ${versions.get(name)}`;
    });
  }

  const tarballs = new Map<string, Tarball>();
  for (const name of after.keys()) {
    const tarball = fresh.get(name) ?? published.get(name);
    if (tarball !== undefined) tarballs.set(name, tarball);
  }
  for (const [name, tarball] of tarballs) {
    const state = released.has(name) ? 'released' : 'already published';
    await checks.run(
      `${name}@${tarball.manifest.version} (${state}): @x ranges resolve to the release`,
      async () => {
        const manifest = tarball.manifest as unknown as PackedManifest;
        const problems = publishedRangeProblems(manifest, versions, released.has(name));
        if (problems.length > 0) throw new Error(problems.join('\n'));
        return undefined;
      },
    );
  }

  await checks.run('README install lines name versions the release makes', async () => {
    const readmes = [
      join(repo, 'README.md'),
      ...(await publishablePackages(repo)).map((p) => join(p.dir, 'README.md')),
    ];
    const problems: string[] = [];
    for (const file of readmes) {
      const text = await readFile(file, 'utf8').catch(() => '');
      problems.push(
        ...readmeVersionProblems(text, versions).map((p) => `${file.slice(repo.length + 1)}: ${p}`),
      );
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return `${readmes.length} READMEs`;
  });

  const app = join(work, 'app');
  const installed = await checks.run('the packed tarballs install together with npm', async () => {
    const paths = new Map([...tarballs].map(([name, tarball]) => [name, tarball.path]));
    await installTogether(app, paths);
    return [...tarballs.values()].map((t) => `${t.name}@${t.manifest.version}`).join(', ');
  });
  const cli = tarballs.get('@x/jobs-cli');
  if (installed && cli !== undefined) {
    await checks.run('x-jobs --version prints the version installed', async () => {
      const printed = await cliVersion(app);
      const wanted = versions.get('@x/jobs-cli');
      if (printed !== wanted) throw new Error(`x-jobs --version printed "${printed}", the CLI is ${wanted}`);
      return printed;
    });
  }

  await checks.run('the pending changesets are still pending in the repository', async () => {
    const still = await readPendingChangesets(root);
    const gone = changesets.filter((c) => !still.some((s) => s.id === c.id)).map((c) => c.id);
    if (gone.length > 0) throw new Error(`consumed in the repository itself: ${gone.join(', ')}`);
    return undefined;
  });
}
