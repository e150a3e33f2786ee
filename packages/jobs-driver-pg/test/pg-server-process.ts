import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The newest PostgreSQL server binaries on this machine (Debian's `/usr/lib/postgresql/<v>/bin`), or PATH. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return '';
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? '' : join(root, versions[0] as string, 'bin');
}

/**
 * A throwaway PostgreSQL of the test's own (initdb + pg_ctl in a temp directory, trust auth on
 * 127.0.0.1), so a test can stop and restart a server under a running worker without touching the
 * shared one. As root (CI) the server runs as the `postgres` user, as PostgreSQL requires.
 */
export class PgServerProcess {
  readonly port: number;
  readonly dir: string;
  readonly #asPostgres: boolean;

  private constructor(port: number, dir: string, asPostgres: boolean) {
    this.port = port;
    this.dir = dir;
    this.#asPostgres = asPostgres;
  }

  /** initdb's a fresh cluster on `port` and starts it (fails loudly without the server binaries). */
  static async launch(port: number): Promise<PgServerProcess> {
    const dir = await mkdtemp(join(tmpdir(), 'xjobs-pg-'));
    const asPostgres = userInfo().uid === 0;
    if (asPostgres) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const server = new PgServerProcess(port, dir, asPostgres);
    await server.#pg('initdb', [
      '-D',
      server.#data,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
    ]);
    await server.start();
    return server;
  }

  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get #data(): string {
    return join(this.dir, 'data');
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off`;
    await this.#pg('pg_ctl', [
      '-D',
      this.#data,
      '-o',
      options,
      '-l',
      join(this.dir, 'log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  }

  /** Stops the server (`-m fast`: sessions are cut, as in a restart) and waits until it is down. */
  async stop(): Promise<void> {
    await this.#pg('pg_ctl', ['-D', this.#data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  /** Stops the server if it runs and deletes its directory. */
  async destroy(): Promise<void> {
    await this.stop().catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }

  async #pg(tool: string, args: readonly string[]): Promise<void> {
    const bin = binDir();
    const command = bin === '' ? tool : join(bin, tool);
    if (this.#asPostgres) await run('runuser', ['-u', 'postgres', '--', command, ...args]);
    else await run(command, [...args]);
  }
}
