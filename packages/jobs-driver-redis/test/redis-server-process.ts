import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pingOnce } from './redis-fixture.js';

/** A loopback port nobody listens on right now. */
export async function sparePort(): Promise<number> {
  return await new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(),
      );
    });
  });
}

/**
 * A `redis-server` of the test's own on a spare loopback port, with an append-only file in a temp
 * directory: `stop()` shuts it down (SIGTERM = SHUTDOWN, the AOF flushed) and `start()` brings it
 * back on the same port and directory with its data.
 */
export class RedisServerProcess {
  readonly port: number;
  readonly dir: string;
  /** The settings it runs with beyond port, bind, dir and logging (`--maxmemory-policy`, …). */
  readonly settings: readonly string[];
  #child: ChildProcess | null = null;

  private constructor(port: number, dir: string, settings: readonly string[]) {
    this.port = port;
    this.dir = dir;
    this.settings = settings;
  }

  /**
   * Starts a fresh server; fails loudly when `redis-server` is not on PATH. `settings` replace the
   * default persistence flags (Default: `--appendonly yes --save ''`).
   */
  static async launch(
    settings: readonly string[] = ['--appendonly', 'yes', '--save', ''],
  ): Promise<RedisServerProcess> {
    const dir = await mkdtemp(join(tmpdir(), 'xjobs-redis-'));
    const server = new RedisServerProcess(await sparePort(), dir, settings);
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server process and resolves once it answers PING. */
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        ...this.settings,
        '--logfile',
        '',
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
    this.#child = child;
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error) => reject(new Error(`redis-server did not start: ${error.message}`)));
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} at start`)));
    });
    await Promise.race([this.#waitForPing(), failed]);
  }

  /** Shuts the server down (SIGTERM: a graceful SHUTDOWN) and resolves once the process is gone. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = null;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }

  /** Stops the server and deletes its directory. */
  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }

  async #waitForPing(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        return await pingOnce(this.url);
      } catch {
        if (Date.now() > deadline) throw new Error(`redis-server on ${this.port} did not answer within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}
