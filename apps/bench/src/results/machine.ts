import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';
import { DATABASE_URL, redisOptions } from '../endpoints.js';

/** What the numbers were measured on. */
export interface MachineNotes {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly node: string;
  readonly kernel: string;
  readonly postgres: string;
  readonly redis: string;
}

/** The 1/5/15-minute load averages, rounded. */
export function loadAverages(): number[] {
  return loadavg().map((value) => Math.round(value * 100) / 100);
}

/**
 * Paths of the whole checkout whose changes mark a run `+dirty`: everything (a change in any
 * package is measured too) but the results files the bench itself writes.
 */
const DIRTY_PATHSPEC = [
  ':(top)',
  ':(top,exclude)apps/bench/RESULTS.md',
  ':(top,exclude)apps/bench/RESULTS.json',
];

/** The short commit the bench ran at, with `+dirty` when the checkout had other changes. */
export function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', ...DIRTY_PATHSPEC], {
      encoding: 'utf8',
    }).trim();
    return dirty ? `${commit}+dirty` : commit;
  } catch {
    return 'unknown';
  }
}

async function postgresNotes(): Promise<string> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings
       WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'shared_buffers', 'max_connections')`,
    );
    const get = (name: string): string => rows.find((row) => row.name === name)?.setting ?? '?';
    const buffersMb = (Number(get('shared_buffers')) * 8) / 1024;
    return `PostgreSQL ${get('server_version')} (fsync ${get('fsync')}, synchronous_commit ${get('synchronous_commit')}, shared_buffers ${buffersMb} MB, max_connections ${get('max_connections')}) on loopback`;
  } finally {
    await client.end();
  }
}

async function redisNotes(): Promise<string> {
  const client = new Redis(redisOptions(0));
  try {
    const info = await client.info('server');
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? '?';
    const [, save] = (await client.config('GET', 'save')) as string[];
    const [, aof] = (await client.config('GET', 'appendonly')) as string[];
    return `Redis ${version} (RDB save "${save ?? ''}", appendonly ${aof ?? '?'}) on loopback`;
  } finally {
    client.disconnect();
  }
}

/** Collects the machine notes printed above the tables. */
export async function machineNotes(): Promise<MachineNotes> {
  const [postgres, redis] = await Promise.all([
    postgresNotes().catch((error: unknown) => `PostgreSQL unreachable: ${String(error)}`),
    redisNotes().catch((error: unknown) => `Redis unreachable: ${String(error)}`),
  ]);
  return {
    cpu: cpus()[0]?.model ?? '?',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    kernel: release(),
    postgres,
    redis,
  };
}
