import { spawn } from 'node:child_process';

/** What a finished command printed. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `command args…` in `cwd` and answers its output; a non-zero exit rejects with an error
 * whose message holds the command line and everything it printed.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly timeoutMs?: number },
): Promise<CommandOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else {
        const line = [command, ...args].join(' ');
        reject(new Error(`\`${line}\` in ${options.cwd} exited ${code ?? signal}\n${stdout}${stderr}`));
      }
    });
  });
}

/** Runs `tasks` with at most `limit` at once; answers their results in order. */
export async function inPool<T>(limit: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
  return results;
}
