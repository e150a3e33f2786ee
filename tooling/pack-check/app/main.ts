// `node dist/main.js <backend>`: enqueue → worker → steps → done on one backend, then exit 0.
import { createWorker, defineJobs, setJobDriver } from '@x/jobs-core';
import { ended, greet } from './jobs.js';
import { openDriver } from './open-driver.js';

const backend = process.argv[2] ?? 'memory';
const { driver, cleanup } = await openDriver(backend);
setJobDriver(driver);
defineJobs({ jobs: [{ greet }] });

const { id } = await greet.enqueue({ who: backend });
const worker = createWorker({ driver, context: () => ({}), handleSignals: false });
await worker.start();
const timeout = new Promise<never>((_, reject) => {
  setTimeout(() => reject(new Error(`${backend}: the job did not settle within 120 s`)), 120_000).unref();
});
const ending = await Promise.race([ended, timeout]);
const row = await driver.introspect?.get(id);
await worker.stop();
await driver.close();
await cleanup();

const expected = `hello ${backend}`;
if (ending.outcome !== 'completed' || ending.greeting !== expected || ending.length !== expected.length) {
  throw new Error(`${backend}: ended ${JSON.stringify(ending)}`);
}
if (row === null || (row !== undefined && row.state !== 'done')) {
  throw new Error(`${backend}: the row is ${row?.state ?? 'gone'}, not done`);
}
console.log(`${backend}: enqueue → worker → steps (greet, measure) → done (${id})`);
