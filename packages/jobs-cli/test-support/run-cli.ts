import { type ChildProcess, spawn } from 'node:child_process';
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

/** One event of the JSON lines `worker`, `scheduler` and `dev` print under `--json`. */
export interface JsonLine {
  readonly event: string;
  readonly [field: string]: unknown;
}

/** stdout of a long-running command under `--json`: one object per line. */
export function jsonLines(stdout: string): JsonLine[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JsonLine);
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

/** A running `x-jobs` process. */
export interface RunningCli {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Resolves once stdout or stderr contains `text`; rejects when the process exits first. */
  waitFor(text: string | RegExp): Promise<void>;
  /** Resolves when the process exits. */
  readonly done: Promise<CliRun>;
}

/** Spawns `node dist/cli.js ...args` and answers the running process (for signals and live output). */
export function startCli(args: readonly string[], options: RunOptions = {}): RunningCli {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI_PATH, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: baseEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const check = (): void => {
    for (const waiter of waiters) waiter();
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    check();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    check();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      check();
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
  let exited = false;
  void done.then(() => {
    exited = true;
  });
  return {
    child,
    stdout: () => stdout,
    done,
    waitFor(text) {
      return new Promise<void>((resolve, reject) => {
        const waiter = (): void => {
          const all = stdout + stderr;
          if (typeof text === 'string' ? all.includes(text) : text.test(all)) {
            waiters.delete(waiter);
            resolve();
          } else if (exited || child.exitCode !== null) {
            waiters.delete(waiter);
            reject(
              new Error(
                `x-jobs exited before printing ${String(text)}.\nstdout: ${stdout}\nstderr: ${stderr}`,
              ),
            );
          }
        };
        waiters.add(waiter);
        waiter();
      });
    },
  };
}

/** Spawns `node dist/cli.js ...args` and collects its output and exit code. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return startCli(args, options).done;
}
