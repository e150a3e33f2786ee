import { createWorker, defineJobs, job, setJobDriver } from '@x/jobs-core';
import { postgresJobDriver } from '@x/jobs-driver-pg';
import { z } from 'zod';

const sendWelcome = job({
  input: z.object({ userId: z.string() }),
  idempotencyKey: ({ userId }) => `welcome:${userId}`,
  tenant: 'none',
  run: ({ input }) => console.log('welcome', input.userId),
});
defineJobs({ jobs: [{ sendWelcome }] });

const driver = postgresJobDriver({ connectionString: process.env.DATABASE_URL! });
setJobDriver(driver); // every handle.enqueue() now writes to x_jobs.jobs
await sendWelcome.enqueue({ userId: 'u1' });

const worker = createWorker({ driver, context: () => ({}) });
await worker.start(); // claims in batches, woken by LISTEN/NOTIFY
await worker.stopped; // SIGTERM/SIGINT drains it: held jobs finish or go back uncounted
await driver.close(); // the pool and the LISTEN session: nothing is left to keep the process alive
