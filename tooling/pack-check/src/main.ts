// pnpm pack-check (a step of `pnpm test`): the packages as a user installs them. See ../README.md.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkCliFirstContact } from './cli-first-contact.js';
import { specName } from './install-lines.js';
import { attwProblems, publintProblems } from './lint-tarballs.js';
import { manifestProblems } from './manifest-rules.js';
import { entrySpecifiers, packAll, type Tarball } from './pack-tarballs.js';
import { runAppOnEveryBackend } from './run-app.js';
import { inPool } from './run-command.js';
import { installScratchApp, probeEntries } from './scratch-app.js';
import { publishablePackages, type WorkspacePackage } from './workspace-packages.js';

const here = import.meta.dirname;
const root = resolve(here, '../../..');
const started = Date.now();
const passed: string[] = [];
const failed: string[] = [];
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;

/** Runs one named check; a throw is recorded as its failure, never stops the others. */
async function check(name: string, body: () => Promise<string | undefined>): Promise<void> {
  try {
    const detail = await body();
    passed.push(name);
    console.log(`✓ ${name}${detail === undefined ? '' : `: ${detail}`} [${elapsed()}]`);
  } catch (error) {
    failed.push(name);
    console.log(
      `✗ ${name} [${elapsed()}]\n${String((error as Error).message ?? error).replace(/^/gm, '    ')}`,
    );
  }
}

const packages = await publishablePackages(root);
const work = await mkdtemp(join(tmpdir(), 'x-jobs-pack-check-'));
console.log(`pack-check: ${packages.length} publishable packages, scratch apps in ${work}`);

await check('turbo builds every publishable package first', async () => {
  const own = JSON.parse(await readFile(join(here, '..', 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  const missing = packages
    .filter((pkg) => own.devDependencies?.[pkg.name] === undefined)
    .map((pkg) => pkg.name);
  if (missing.length > 0) {
    throw new Error(
      `add to tooling/pack-check/package.json devDependencies: ${missing.map((n) => `"${n}": "workspace:*"`).join(', ')}`,
    );
  }
  return undefined;
});

const tarballs = await packAll(packages, work);
const byName = new Map(tarballs.map((tarball) => [tarball.name, tarball.path]));

for (const tarball of tarballs) {
  await check(`${tarball.name}: packed manifest`, async () => {
    const problems = manifestProblems(tarball.manifest, tarball.files);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return undefined;
  });
}
await inPool(
  2,
  tarballs.map(
    (tarball) => () =>
      check(`${tarball.name}: publint and attw (esm-only)`, async () => {
        const problems = [...(await publintProblems(tarball)), ...(await attwProblems(tarball))];
        if (problems.length > 0) throw new Error(problems.join('\n'));
        return undefined;
      }),
  ),
);

/**
 * Each README install line naming the package, run alone in a fresh app: the first must serve the
 * package's main entry, the last every entry (one line: every entry). Lines installing other
 * packages (the CLI's backends) run in the union app only.
 */
function installChecks(pkg: WorkspacePackage, tarball: Tarball): (() => Promise<void>)[] {
  const own = pkg.installLines.filter((line) => line.specs.some((spec) => specName(spec) === pkg.name));
  if (own.length === 0) {
    const missing = new Error(`README has no \`npm install ${pkg.name} …\` line under ## Install`);
    return [() => check(`${pkg.name}: README install line`, () => Promise.reject(missing))];
  }
  const entries = entrySpecifiers(tarball);
  return own.map(
    (line, index) => () =>
      check(`${pkg.name}: \`${line.text}\``, async () => {
        const dir = join(work, 'apps', `${pkg.name.replace(/\W+/g, '-')}-${index}`);
        await installScratchApp(dir, line, byName);
        const probed = index === own.length - 1 ? entries : [pkg.name];
        const isolated = await probeEntries(dir, probed, 'probe');
        const note = isolated === 0 ? '' : ` (${isolated} errors isolated in PGlite's own .d.ts)`;
        const cli = pkg.name === '@x/jobs-cli' && index === 0 ? `; ${await checkCliFirstContact(dir)}` : '';
        return `strict tsc${note}, require() and import() of ${probed.join(', ')}${cli}`;
      }),
  );
}
await inPool(
  3,
  packages.flatMap((pkg) => installChecks(pkg, tarballs.find((t) => t.name === pkg.name) as Tarball)),
);

await check('the app on memory, PGlite, PostgreSQL and Redis', async () => {
  const specs = new Map<string, string>();
  for (const line of packages.flatMap((pkg) => pkg.installLines)) {
    for (const spec of line.specs) specs.set(specName(spec), spec);
  }
  const line = { text: 'union of every README install line', specs: [...specs.values()], flags: [] };
  const dir = join(work, 'apps', 'all');
  await installScratchApp(dir, line, byName);
  const lines = await runAppOnEveryBackend(dir, join(here, '..', 'app'));
  return `\n    ${lines.join('\n    ')}`;
});

if (process.env.PACK_CHECK_KEEP === undefined) await rm(work, { recursive: true, force: true });
console.log(`pack-check took ${elapsed()}`);
console.log(`${passed.length} passed, ${failed.length} failed`);
process.exitCode = failed.length === 0 ? 0 : 1;
