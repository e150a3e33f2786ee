import { createWorker, defineJobs, job, setJobDriver } from '@x/jobs-core';
import { pgliteJobDriver } from '@x/jobs-driver-pg/pglite';
import { z } from 'zod';

const sendWelcome = job({
  input: z.object({ userId: z.string() }),
  idempotencyKey: ({ userId }) => `welcome:${userId}`,
  tenant: 'none',
  run: ({ input }) => console.log('welcome', input.userId),
});
defineJobs({ jobs: [{ sendWelcome }] });

const driver = await pgliteJobDriver({ dataDir: '.x-jobs/db' }); // embedded: no server to run
setJobDriver(driver); // every handle.enqueue() now writes to x_jobs.jobs in .x-jobs/db
await sendWelcome.enqueue({ userId: 'u1' });

const worker = createWorker({ driver, context: () => ({}) });
await worker.start(); // claims in batches, woken by PGlite's in-process NOTIFY
await worker.stopped; // SIGTERM/SIGINT drains it: held jobs finish or go back uncounted
await driver.close(); // closes PGlite and removes .x-jobs/db/.x-jobs.lock: the process exits
