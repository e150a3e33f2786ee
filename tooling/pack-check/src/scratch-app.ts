import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type InstallLine, specName } from './install-lines.js';
import { runCommand } from './run-command.js';

const require = createRequire(import.meta.url);

/** The environment npm runs in: this process's, less what pnpm exported for its own config. */
export function npmEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|PNPM_)/i.test(key)) env[key] = value;
  }
  return env;
}

/**
 * Creates an empty app in `dir` (outside the workspace: no links, no pnpm settings) and runs the
 * install `line` there with npm, each `@x/…` package taken from its tarball. Answers the npm
 * command run.
 */
export async function installScratchApp(
  dir: string,
  line: InstallLine,
  tarballs: ReadonlyMap<string, string>,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  // An @x package another one depends on (the CLI on the dashboard) comes from its tarball, as if
  // published: an override, so the install command stays the README's.
  const named = new Set(line.specs.map(specName));
  const overrides = Object.fromEntries(
    [...tarballs].filter(([name]) => !named.has(name)).map(([name, path]) => [name, `file:${path}`]),
  );
  const manifest = { name: 'scratch-app', private: true, type: 'module', overrides };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest)}\n`);
  const specs = line.specs.map((spec) => {
    if (!spec.startsWith('@x/')) return spec;
    const tarball = tarballs.get(specName(spec));
    if (tarball === undefined)
      throw new Error(`"${line.text}" names ${spec}, which is no publishable package`);
    return tarball;
  });
  const args = [
    'install',
    ...line.flags,
    ...specs,
    '--prefer-online',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
  ];
  await runCommand('npm', args, { cwd: dir, env: npmEnvironment(), timeoutMs: 240_000 });
  return `npm ${args.join(' ')}`;
}

/** The workspace's tsc and @types (the compiler is the app's choice, not the packages'). */
function toolchain() {
  const typescript = dirname(require.resolve('typescript/package.json'));
  const typesNode = dirname(require.resolve('@types/node/package.json'));
  return { tsc: join(typescript, 'bin', 'tsc'), typeRoots: [dirname(typesNode)] };
}

/**
 * Writes `tsconfig.json` into the scratch app: `strict`, `skipLibCheck: false`, NodeNext, so every
 * `.d.ts` our entries reach is checked as a user's strict build checks it.
 */
export async function writeStrictTsconfig(
  dir: string,
  include: readonly string[],
  outDir?: string,
): Promise<void> {
  const config = {
    compilerOptions: {
      target: 'ES2023',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      skipLibCheck: false,
      types: ['node'],
      typeRoots: toolchain().typeRoots,
      ...(outDir === undefined ? { noEmit: true } : { outDir, rootDir: '.' }),
    },
    include,
  };
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * Third-party `.d.ts` that cannot pass `skipLibCheck: false` on their own, isolated: PGlite's name
 * the `Emscripten` namespace and DOM types without declaring them (the pg README says so and how to
 * fix it in an app). Errors inside them are counted, not failed; an error anywhere else fails.
 */
const ISOLATED_TYPE_FAILURES = ['node_modules/@electric-sql/pglite/'] as const;

/**
 * Runs tsc on the scratch app's tsconfig.json. Answers how many errors fell inside
 * {@link ISOLATED_TYPE_FAILURES}; any other error rejects with tsc's output.
 */
export async function compile(dir: string): Promise<number> {
  try {
    await runCommand(process.execPath, [toolchain().tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir });
    return 0;
  } catch (error) {
    const message = (error as Error).message;
    const errors = message.split('\n').filter((line) => /\): error TS\d+/.test(line));
    const isolated = errors.filter((line) =>
      ISOLATED_TYPE_FAILURES.some((prefix) => line.startsWith(prefix)),
    );
    if (errors.length === 0 || isolated.length < errors.length) throw error;
    return isolated.length;
  }
}

/**
 * Type-checks and loads `specifiers` in the scratch app: a strict compile of a file importing
 * each, then a `require()` and an `import()` of each in a fresh Node, which must export the same
 * non-empty set of names. Answers the count of isolated third-party type errors (see `compile`).
 */
export async function probeEntries(
  dir: string,
  specifiers: readonly string[],
  name: string,
): Promise<number> {
  const imports = specifiers.map((spec, index) => `import * as entry${index} from '${spec}';`);
  const list = specifiers.map((_, index) => `entry${index}`).join(', ');
  await writeFile(join(dir, `${name}.ts`), `${imports.join('\n')}\nexport const entries = [${list}];\n`);
  await writeStrictTsconfig(dir, [`${name}.ts`]);
  const isolated = await compile(dir);
  const script = `
    const specs = ${JSON.stringify(specifiers)};
    const { createRequire } = await import('node:module');
    const require = createRequire(process.cwd() + '/');
    for (const spec of specs) {
      const required = Object.keys(require(spec)).sort().join(',');
      const imported = Object.keys(await import(spec)).filter((key) => key !== 'module.exports').sort().join(',');
      if (required === '') throw new Error(spec + ': require() answered no export');
      if (required !== imported) throw new Error(spec + ': require() and import() disagree: ' + required + ' vs ' + imported);
    }
    console.log('loaded', specs.join(' '));
  `;
  await writeFile(join(dir, `${name}.mjs`), script);
  await runCommand(process.execPath, ['--disable-warning=ExperimentalWarning', `${name}.mjs`], { cwd: dir });
  return isolated;
}
