import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built binary the tests run. */
export const CLI_PATH = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** What a finished `x-jobs` process left. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as the one JSON document `--json` promises. */
  json<T = unknown>(): T;
}

/** How to run it: extra env (merged over a clean base), working directory, node flags. */
export interface RunOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Flags for node itself, e.g. `['--import', 'tsx']`. */
  readonly nodeArgs?: readonly string[];
  /** Kill it with SIGKILL after this long. (Default: 60_000) */
  readonly timeoutMs?: number;
}

/**
 * A clean environment: PATH and HOME only, so a developer's DATABASE_URL, REDIS_URL or
 * NO_COLOR never changes what a test sees.
 */
export function baseEnv(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

/** Spawns `node dist/cli.js ...args` and collects its output and exit code. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI_PATH, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: baseEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout,
        stderr,
        json<T>() {
          try {
            return JSON.parse(stdout) as T;
          } catch {
            throw new Error(`stdout is not one JSON document.\nstdout: ${stdout}\nstderr: ${stderr}`);
          }
        },
      });
    });
  });
}
