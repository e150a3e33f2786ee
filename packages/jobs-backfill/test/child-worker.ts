import { type ChildProcess, spawn } from 'node:child_process';

/** A worker child process running a TypeScript file under tsx, sources resolved like the tests. */
export interface ChildWorker {
  readonly child: ChildProcess;
  /** Resolves once stdout contains `text`; rejects when the process exits first. */
  waitFor(text: string): Promise<void>;
  /** SIGKILLs it and resolves once it is gone. */
  kill(): Promise<void>;
}

/** Starts `node --conditions=@x/source --import tsx <file> ...args`. */
export function startChildWorker(file: string, args: readonly string[]): ChildWorker {
  const child = spawn(process.execPath, ['--conditions=@x/source', '--import', 'tsx', file, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const waiter of waiters) waiter();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const waiter of waiters) waiter();
  });
  return {
    child,
    waitFor(text) {
      return new Promise<void>((resolve, reject) => {
        const waiter = (): void => {
          if (out.includes(text)) {
            waiters.delete(waiter);
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(waiter);
            reject(new Error(`worker exited before printing '${text}'.\nstdout: ${out}\nstderr: ${err}`));
          }
        };
        waiters.add(waiter);
        waiter();
      });
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Polls `probe` every 100 ms until it answers a value, or fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
