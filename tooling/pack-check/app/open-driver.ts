// Opens the driver the scratch app runs on, each with its own schema / prefix, and its cleanup.
import { randomUUID } from 'node:crypto';
import type { JobDriver } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { postgresJobDriver } from '@x/jobs-driver-pg';
import { pgliteJobDriver } from '@x/jobs-driver-pg/pglite';
import { redisJobDriver } from '@x/jobs-driver-redis';

export interface OpenDriver {
  readonly driver: JobDriver;
  /** Removes what this run stored on a shared server. */
  readonly cleanup: () => Promise<void>;
}

const tag = randomUUID().slice(0, 8);

export async function openDriver(backend: string): Promise<OpenDriver> {
  const none = async () => undefined;
  switch (backend) {
    case 'memory':
      return { driver: memoryJobDriver(), cleanup: none };
    case 'pglite':
      return { driver: await pgliteJobDriver(), cleanup: none };
    case 'postgres': {
      const connectionString = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
      const schema = `pack_check_${tag}`;
      const driver = postgresJobDriver({ connectionString }, { schema });
      const cleanup = async () => {
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString });
        await client.connect();
        await client.query(`drop schema "${schema}" cascade`);
        await client.end();
      };
      return { driver, cleanup };
    }
    case 'redis': {
      const prefix = `pack-check-${tag}`;
      const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
      const cleanup = async () => {
        const { Redis } = await import('ioredis');
        const client = new Redis(url);
        const keys = await client.keys(`{${prefix}}:*`);
        if (keys.length > 0) await client.del(...keys);
        await client.quit();
      };
      return { driver: redisJobDriver({ url, prefix }), cleanup };
    }
    default:
      throw new Error(`unknown backend ${backend}: memory, pglite, postgres or redis`);
  }
}
