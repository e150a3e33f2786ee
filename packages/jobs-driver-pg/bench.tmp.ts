import { randomUUID } from 'node:crypto';
import { migrate, postgresJobDriver } from './src/index.ts';

const url = 'postgres://postgres@127.0.0.1:5432/postgres';
const schema = 'x_jobs_bench_tmp';
await migrate({ connectionString: url }, { schema });
const driver = postgresJobDriver({ connectionString: url, max: 10 }, { schema, wake: false });
const total = 20000;
const reqs = Array.from({ length: total }, (_, i) => ({
  id: randomUUID(),
  runId: randomUUID(),
  name: 'b',
  queue: 'bench',
  payload: { i },
  tenantId: null,
  idempotencyKey: `k${i}`,
  priority: 0,
  maxAttempts: 3,
}));
let t = performance.now();
for (let i = 0; i < total; i += 1000) await driver.enqueueMany(reqs.slice(i, i + 1000));
console.log('enqueueMany', Math.round(total / ((performance.now() - t) / 1000)), 'jobs/s');
const batch = Number(process.argv[2] ?? 50),
  loops = Number(process.argv[3] ?? 4);
let done = 0;
t = performance.now();
await Promise.all(
  Array.from({ length: loops }, async () => {
    for (;;) {
      const jobs = await driver.claim({
        queues: ['bench'],
        limit: batch,
        workerId: 'w',
        visibilityTimeoutMs: 30000,
      });
      if (jobs.length === 0) return;
      await Promise.all(jobs.map((j) => driver.ack(j.id, j.claim, null)));
      done += jobs.length;
    }
  }),
);
console.log(
  `claim(${batch})+ack x${loops}`,
  Math.round(done / ((performance.now() - t) / 1000)),
  'jobs/s',
  done,
);
await driver.close();
const { default: pg } = await import('pg');
const c = new pg.Client(url);
await c.connect();
await c.query(`drop schema ${schema} cascade`);
await c.end();
