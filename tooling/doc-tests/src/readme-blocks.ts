import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockVerdict, codeBlocks } from './code-blocks.js';

/** The workspace root: two folders above this package. */
export const WORKSPACE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the blocks are written: inside this package, so they resolve its dependencies. */
const SCRATCH = resolve(dirname(fileURLToPath(import.meta.url)), '../.scratch');

/** One ```ts block of a README, where it sits and what the doc tests do with it. */
export interface ReadmeBlock {
  /** The README, relative to the workspace root. */
  readonly readme: string;
  /** The line of the opening fence in the README. */
  readonly line: number;
  readonly code: string;
  /** Why it is not checked (`ts fragment: <reason>`), or undefined when it is. */
  readonly skipped?: string;
  /** Whether it is run as well (`ts run`): it runs on the memory driver, no service needed. */
  readonly run?: boolean;
}

/** The root README and every `packages/<name>/README.md`, relative to the workspace root. */
export async function readmes(root = WORKSPACE_ROOT): Promise<string[]> {
  const packages = await readdir(join(root, 'packages'), { withFileTypes: true });
  const found = ['README.md'];
  for (const entry of packages.filter((p) => p.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const readme = join('packages', entry.name, 'README.md');
    if (
      await readFile(join(root, readme)).then(
        () => true,
        () => false,
      )
    )
      found.push(readme);
  }
  return found;
}

/** Every ```ts (or ```typescript) block of `files`, with its verdict. */
export async function readmeBlocks(files: readonly string[], root = WORKSPACE_ROOT): Promise<ReadmeBlock[]> {
  const blocks: ReadmeBlock[] = [];
  for (const readme of files) {
    for (const block of codeBlocks(await readFile(join(root, readme), 'utf8'))) {
      if (block.lang !== 'ts' && block.lang !== 'typescript') continue;
      const verdict = blockVerdict(block);
      blocks.push({
        readme,
        line: block.line,
        code: block.code,
        ...(verdict.check ? { run: verdict.run } : { skipped: verdict.reason }),
      });
    }
  }
  return blocks;
}

/** A compiler error, placed at its README line. */
export interface BlockError {
  readonly at: string;
  readonly message: string;
}

/** Writes each block to its own module in a fresh `dir`; answers the blocks by file name. */
async function writeBlocks(blocks: readonly ReadmeBlock[], dir: string): Promise<Map<string, ReadmeBlock>> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const byFile = new Map<string, ReadmeBlock>();
  for (const block of blocks) {
    byFile.set(scratchName(block), block);
    await writeFile(join(dir, scratchName(block)), block.code);
  }
  return byFile;
}

const scratchName = (block: ReadmeBlock) =>
  `${block.readme.replace(/\/README\.md$|README\.md$/, '').replaceAll('/', '_') || 'root'}_line${block.line}.ts`;

/**
 * Writes each checked block to its own module in the scratch folder and runs `tsc --noEmit` over
 * them with the workspace's compiler settings (this package's tsconfig, which extends
 * tsconfig.base.json). Answers every error at `README:line:column`.
 */
export async function typecheckBlocks(blocks: readonly ReadmeBlock[]): Promise<BlockError[]> {
  const byFile = await writeBlocks(
    blocks.filter((b) => b.skipped === undefined),
    SCRATCH,
  );
  await writeFile(
    join(SCRATCH, 'tsconfig.json'),
    JSON.stringify({
      extends: '../tsconfig.json',
      include: ['*.ts'],
      compilerOptions: { skipLibCheck: true },
    }),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const output = await new Promise<string>((done) => {
    execFile(
      process.execPath,
      [tsc, '-p', join(SCRATCH, 'tsconfig.json'), '--pretty', 'false'],
      { cwd: SCRATCH, maxBuffer: 16 * 1024 * 1024 },
      (_error, stdout, stderr) => done(`${stdout}${stderr}`),
    );
  });
  const errors: BlockError[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+: .*)$/.exec(line);
    if (match === null) {
      if (line.trim() !== '' && !line.startsWith(' ')) errors.push({ at: 'tsc', message: line });
      continue;
    }
    const file = relative(SCRATCH, resolve(SCRATCH, match[1] ?? ''));
    const block = byFile.get(file);
    errors.push({
      at: block === undefined ? file : `${block.readme}:${block.line + Number(match[2])}:${match[3]}`,
      message: match[4] ?? line,
    });
  }
  return errors;
}

/**
 * Writes a block to `.scratch/run/` and runs it with tsx (sibling packages from their source,
 * through the `@x/source` condition) in a child process. Answers its output and exit code; a block
 * still running after `timeoutMs` is killed and answers a null code.
 */
export async function runBlock(
  block: ReadmeBlock,
  timeoutMs = 60_000,
): Promise<{ readonly code: number | null; readonly output: string }> {
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const dir = join(SCRATCH, 'run');
  await writeBlocks([block], dir);
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--conditions=@x/source', '--import', tsx, join(dir, scratchName(block))],
      { cwd: dir, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          output: `${stdout}${stderr}`,
        }),
    );
  });
}
