import { createWorker, defineJobs, job, setJobDriver } from '@x/jobs-core';
import { redisJobDriver } from '@x/jobs-driver-redis';
import { z } from 'zod';

const sendWelcome = job({
  input: z.object({ userId: z.string() }),
  idempotencyKey: ({ userId }) => `welcome:${userId}`,
  tenant: 'none',
  run: ({ input }) => console.log('welcome', input.userId),
});
defineJobs({ jobs: [{ sendWelcome }] });

const driver = redisJobDriver({ prefix: 'shop' }); // url: REDIS_URL, else redis://127.0.0.1:6379
setJobDriver(driver);

await sendWelcome.enqueue({ userId: 'u-1' }); // one EVALSHA
const worker = createWorker({ driver, context: () => ({}) });
await worker.start(); // claims in batches, woken over pub/sub
await worker.stopped; // SIGTERM/SIGINT drains it: held jobs finish or go back uncounted
await driver.close(); // quits the driver's connections: nothing is left to keep the process alive
