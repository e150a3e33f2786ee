import { type ChildProcess, spawn } from 'node:child_process';

/** Starts a Node process that stays alive until killed: a pid that is certainly alive. */
export function spawnIdle(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

/** Runs a Node process to its end and answers its pid: a pid that is certainly dead. */
export function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(child.pid as number));
  });
}

/** Runs a TypeScript file in a fresh Node process (sources resolved like the tests) and answers its stdout. */
export function runScript(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@x/source', '--import', 'tsx', file, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', () => resolve(out.trim()));
  });
}
