import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchSettings } from '../settings.js';
import type { WorkloadId } from '../workloads/workload.js';
import type { FromHost, ToHost } from './host-protocol.js';

const ENTRY = fileURLToPath(new URL('./system-host.ts', import.meta.url));

/** One system's host process, seen from the orchestrator: start it, ask for measurements, close it. */
export class SystemHostHandle {
  private readonly child: ChildProcess;
  private pending: { resolve: (message: FromHost) => void } | null = null;
  private exitError: Error | null = null;

  private constructor(readonly system: string) {
    this.child = fork(ENTRY, [system], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (message: FromHost) => {
      const waiter = this.pending;
      this.pending = null;
      waiter?.resolve(message);
    });
    this.child.once('exit', (code, signal) => {
      this.exitError = new Error(`${system} host exited (${signal ?? code})`);
      const waiter = this.pending;
      this.pending = null;
      waiter?.resolve({ kind: 'failed', error: this.exitError.message });
    });
  }

  /** Forks the host and waits for its system to be set up; answers its versions. */
  static async start(system: string): Promise<{ host: SystemHostHandle; versions: Record<string, string> }> {
    const host = new SystemHostHandle(system);
    const first = await host.next();
    if (first.kind !== 'ready') {
      host.child.kill('SIGKILL');
      throw new Error(first.kind === 'failed' ? first.error : `${system}: unexpected ${first.kind}`);
    }
    return { host, versions: { ...first.versions } };
  }

  /** Runs one measurement; rejects with the host's error (or a timeout, after which the host is killed). */
  async measure(
    workload: WorkloadId,
    settings: BenchSettings,
    timeoutMs: number,
  ): Promise<Record<string, number>> {
    const reply = this.next();
    this.send({ kind: 'measure', workload, settings });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<FromHost>((resolve) => {
      timer = setTimeout(
        () => resolve({ kind: 'failed', error: `timed out after ${timeoutMs} ms` }),
        timeoutMs,
      );
    });
    const message = await Promise.race([reply, timeout]);
    clearTimeout(timer);
    if (message.kind === 'measured') return { ...message.values };
    if (message.kind === 'failed' && message.error.startsWith('timed out after')) this.child.kill('SIGKILL');
    throw new Error(message.kind === 'failed' ? message.error : `unexpected ${message.kind}`);
  }

  /** True while the host process runs. */
  get alive(): boolean {
    return this.exitError === null;
  }

  /** Asks the host to close its system and exit; kills it if it does not within 10 s. */
  async close(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.send({ kind: 'close' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private next(): Promise<FromHost> {
    if (this.exitError) return Promise.resolve({ kind: 'failed', error: this.exitError.message });
    return new Promise((resolve) => {
      this.pending = { resolve };
    });
  }

  private send(message: ToHost): void {
    if (this.child.connected) this.child.send(message);
  }
}
