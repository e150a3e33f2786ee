import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** What {@link runWorkerProcess} saw of one worker process. */
export interface WorkerProcessExit {
  /** The exit code (null when a signal ended it). */
  readonly code: number | null;
  /** The signal that ended it, if one did (a SIGTERM left to Node's default, a SIGKILL). */
  readonly signal: NodeJS.Signals | null;
  /** Milliseconds from the SIGTERM to the exit; undefined when it exited before being signalled. */
  readonly exitMs: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runWorkerProcess}. */
export interface WorkerProcessOptions {
  /** Extra environment for the child (merged over this process's). */
  readonly env?: Readonly<Record<string, string>>;
  /** The child's working directory: where its imports resolve. (Default: this process's) */
  readonly cwd?: string;
  /** A stderr or stdout fragment that says the worker is up. (Default: `"jobs.worker.started"`) */
  readonly readyText?: string;
  /** How long to wait for `readyText` before signalling anyway. (Default: 60_000) */
  readonly readyTimeoutMs?: number;
  /** How long after the SIGTERM to wait for the exit before SIGKILL. (Default: 60_000) */
  readonly exitTimeoutMs?: number;
  /**
   * Node arguments before the file. (Default: `--conditions=@x/source --import <tsx>`, tsx resolved
   * from the file's folder: a TypeScript example run on the workspace's sources)
   */
  readonly nodeArgs?: readonly string[];
}

/**
 * Runs a worker program (a README example) in a child Node process, sends it SIGTERM once it
 * printed `readyText`, and answers how and when it ended. A process that is still alive
 * `exitTimeoutMs` after the signal is killed (SIGKILL) and answered with `signal: 'SIGKILL'`: the
 * "drains, then hangs until a second signal" failure. How the drivers prove that their README
 * worker exits by itself.
 */
export function runWorkerProcess(
  file: string,
  options: WorkerProcessOptions = {},
): Promise<WorkerProcessExit> {
  const readyText = options.readyText ?? '"jobs.worker.started"';
  const child = spawn(process.execPath, [...(options.nodeArgs ?? sourceArgs(file)), file], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let signalledAt: number | undefined;
  let killer: ReturnType<typeof setTimeout> | undefined;
  const terminate = () => {
    if (signalledAt !== undefined || child.exitCode !== null) return;
    signalledAt = performance.now();
    child.kill('SIGTERM');
    killer = setTimeout(() => child.kill('SIGKILL'), options.exitTimeoutMs ?? 60_000);
  };
  const readyTimer = setTimeout(terminate, options.readyTimeoutMs ?? 60_000);
  const watch = () => {
    if (stdout.includes(readyText) || stderr.includes(readyText)) terminate();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    watch();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    watch();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(readyTimer);
      clearTimeout(killer);
      const exitMs = signalledAt === undefined ? undefined : performance.now() - signalledAt;
      resolve({ code, signal, exitMs, stdout, stderr });
    });
  });
}

/**
 * The fenced `ts` code blocks of a Markdown file, each as written (without the fences): how a test
 * checks that the example file it runs is, character for character, one the README shows.
 */
export async function markdownCodeBlocks(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

/** Runs `file` as TypeScript on the workspace's sources: tsx resolved from the file's own folder. */
function sourceArgs(file: string): string[] {
  const tsx = createRequire(file).resolve('tsx');
  return ['--conditions=@x/source', '--import', pathToFileURL(tsx).href];
}
