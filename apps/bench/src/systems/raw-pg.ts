import pg from 'pg';
import { ensureDatabase } from '../databases.js';
import { BENCH_DATABASES, databaseUrl } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchPayload, BenchSystem, RunningWorker, StartWorkerOptions } from '../system.js';
import { PrefetchPump, type PumpSource } from './prefetch-pump.js';

/** The wake channel: every enqueue statement notifies it; Postgres folds repeats within a transaction. */
const CHANNEL = 'raw_jobs';

const CREATE = `
CREATE TABLE IF NOT EXISTS raw_jobs (
  id bigserial PRIMARY KEY,
  payload jsonb NOT NULL,
  state smallint NOT NULL DEFAULT 0,
  locked_at timestamptz
);
CREATE INDEX IF NOT EXISTS raw_jobs_ready ON raw_jobs (id) WHERE state = 0;`;

/** $1 text[] of JSON payloads; inserts them all and notifies once. */
const ENQUEUE_MANY = `
WITH inserted AS (INSERT INTO raw_jobs (payload) SELECT unnest($1::jsonb[]) RETURNING 1)
SELECT pg_notify('${CHANNEL}', '') FROM (SELECT count(*) FROM inserted) AS n`;

/** $1 the JSON payload. */
const ENQUEUE_ONE = `
WITH inserted AS (INSERT INTO raw_jobs (payload) VALUES ($1::jsonb) RETURNING id)
SELECT pg_notify('${CHANNEL}', ''), id FROM inserted`;

/** $1 how many to take: the oldest ready rows no other claimer holds, marked running. */
const CLAIM = `
UPDATE raw_jobs SET state = 1, locked_at = now()
WHERE id IN (SELECT id FROM raw_jobs WHERE state = 0 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
RETURNING id, payload`;

/** $1 bigint[] of finished ids. */
const SETTLE = 'DELETE FROM raw_jobs WHERE id = ANY($1::bigint[])';

/** $1 bigint[] of ids taken but never run. */
const RELEASE = 'UPDATE raw_jobs SET state = 0, locked_at = NULL WHERE id = ANY($1::bigint[])';

interface RawPgJob {
  readonly id: string;
  readonly payload: BenchPayload;
}

/** How long an idle worker sleeps between polls when no notification arrives. */
const POLL_MS = 1000;

/**
 * The Postgres limit: the least work a durable queue on Postgres can do. Batched INSERT with one
 * NOTIFY, a batched SKIP LOCKED claim, batched DELETE of finished jobs, prepared statements.
 * No retries, no leases, no dedupe: numbers other systems cannot beat on the same server.
 */
export function rawPgSystem(): BenchSystem {
  const url = databaseUrl(BENCH_DATABASES.rawpg);
  let pool: pg.Pool | null = null;
  const producer = (): pg.Pool => {
    if (!pool) throw new Error('raw-pg: setup() first');
    return pool;
  };

  return {
    name: 'raw-pg',
    backend: 'pg',
    database: BENCH_DATABASES.rawpg,
    versions: { pg: installedVersion('pg') },
    async setup() {
      await ensureDatabase(BENCH_DATABASES.rawpg);
      pool = new pg.Pool({ connectionString: url, max: 2 });
      await pool.query(CREATE);
    },
    async reset() {
      await producer().query('TRUNCATE raw_jobs RESTART IDENTITY');
    },
    async enqueueBulk(payloads) {
      const json = payloads.map((payload) => JSON.stringify(payload));
      await producer().query({ name: 'raw_enqueue_many', text: ENQUEUE_MANY, values: [json] });
    },
    async enqueueOne(payload) {
      await producer().query({
        name: 'raw_enqueue_one',
        text: ENQUEUE_ONE,
        values: [JSON.stringify(payload)],
      });
    },
    startWorker: (options) => startRawPgWorker(url, options),
    async pending() {
      const result = await producer().query<{ n: string }>('SELECT count(*) AS n FROM raw_jobs');
      return Number(result.rows[0]?.n ?? 0);
    },
    async close() {
      await pool?.end();
      pool = null;
    },
  };
}

async function startRawPgWorker(url: string, options: StartWorkerOptions): Promise<RunningWorker> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  await listener.query(`LISTEN ${CHANNEL}`);
  let notified = false;
  let wake: (() => void) | null = null;
  listener.on('notification', () => {
    notified = true;
    wake?.();
  });

  const source: PumpSource<RawPgJob> = {
    async fetch(max) {
      notified = false;
      const result = await pool.query<RawPgJob>({ name: 'raw_claim', text: CLAIM, values: [max] });
      return result.rows;
    },
    async idle() {
      if (notified) return [];
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
      return [];
    },
    interrupt() {
      wake?.();
    },
    async settle(jobs) {
      await pool.query({ name: 'raw_settle', text: SETTLE, values: [jobs.map((job) => job.id)] });
    },
    async release(jobs) {
      await pool.query(RELEASE, [jobs.map((job) => job.id)]);
    },
  };
  const pump = new PrefetchPump(source, {
    concurrency: options.concurrency,
    batch: Math.max(100, options.concurrency * 4),
    run: (job) => options.onJob(job.payload),
  });
  return {
    async stop() {
      await pump.stop();
      await listener.end();
      await pool.end();
    },
  };
}
