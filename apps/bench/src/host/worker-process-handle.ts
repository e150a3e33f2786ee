import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromWorkerProcess, ToWorkerProcess } from './worker-protocol.js';

const ENTRY = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

/** Options for {@link WorkerProcessHandle.spawn}. */
export interface SpawnOptions {
  readonly system: string;
  readonly concurrency: number;
  readonly logFile?: string;
  /** Passed to the worker as `leaseMs`. */
  readonly leaseMs?: number;
  /** How long each job's handler takes, in ms. (Default: 0, a no-op) */
  readonly jobMs?: number;
  /** Called with each batch of ids the process reports (not when it logs to a file) and its latest start. */
  readonly onIds?: (ids: readonly number[], lastAt: number) => void;
}

/** A process to fork that speaks the worker protocol: its entry, arguments and Node flags. */
export interface ForkPlan {
  readonly entry: string;
  readonly args: readonly string[];
  /** (Default: the host's own `process.execArgv`) */
  readonly execArgv?: readonly string[];
  readonly logFile?: string;
  readonly onIds?: SpawnOptions['onIds'];
}

/**
 * One forked worker process, seen from the host: wait for it to be ready, start it, stop it
 * cleanly, or SIGKILL it. Forks inherit the tsx loader (and run the built @x packages, like the host).
 */
export class WorkerProcessHandle {
  /** Jobs the process reported running. */
  count = 0;
  /** Epoch ms of its first job (NaN before). */
  firstAt = Number.NaN;
  /** Resolves when the process exits, however it ends. */
  readonly exited: Promise<void>;
  /** The file the process appends each job id to, if it was given one. */
  readonly logFile: string | undefined;
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;
  private stoppedResolve: (() => void) | null = null;

  private constructor(options: ForkPlan) {
    this.logFile = options.logFile;
    this.child = fork(options.entry, [...options.args], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      ...(options.execArgv === undefined ? {} : { execArgv: [...options.execArgv] }),
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.ready = new Promise((resolve, reject) => {
      this.child.on('message', (message: FromWorkerProcess) => {
        switch (message.kind) {
          case 'ready':
            resolve();
            break;
          case 'progress':
            this.count += message.count;
            if (!(this.firstAt <= message.firstAt)) this.firstAt = message.firstAt;
            if (message.ids.length > 0) options.onIds?.(message.ids, message.lastAt);
            break;
          case 'stopped':
            this.stoppedResolve?.();
            break;
          case 'failed':
            reject(new Error(`worker process failed: ${message.error}`));
            break;
        }
      });
      this.child.once('exit', (code) => reject(new Error(`worker process exited (${code}) before ready`)));
    });
  }

  /** Forks a worker process and waits until its system is set up. */
  static spawn(options: SpawnOptions): Promise<WorkerProcessHandle> {
    const args = [
      options.system,
      String(options.concurrency),
      options.logFile ?? '-',
      options.leaseMs === undefined ? '-' : String(options.leaseMs),
      String(options.jobMs ?? 0),
    ];
    return WorkerProcessHandle.fork({
      entry: ENTRY,
      args,
      ...(options.logFile === undefined ? {} : { logFile: options.logFile }),
      ...(options.onIds === undefined ? {} : { onIds: options.onIds }),
    });
  }

  /** Forks any entry that speaks the worker protocol and waits until it is ready. */
  static async fork(plan: ForkPlan): Promise<WorkerProcessHandle> {
    const handle = new WorkerProcessHandle(plan);
    await handle.ready;
    return handle;
  }

  /** The OS process id. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Starts the process's worker. */
  go(): void {
    this.send({ kind: 'go' });
  }

  /** Stops the worker cleanly (handlers finish, settles land) and waits for the exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const stopped = new Promise<void>((resolve) => {
      this.stoppedResolve = resolve;
    });
    this.send({ kind: 'stop' });
    await Promise.race([stopped.then(() => this.exited), this.exited]);
  }

  /** SIGKILL: no cleanup, no settles, exactly what a crashed machine does. */
  kill(): void {
    this.child.kill('SIGKILL');
  }

  private send(message: ToWorkerProcess): void {
    if (this.child.connected) this.child.send(message);
  }
}
