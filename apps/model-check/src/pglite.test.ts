import { PGlite } from '@electric-sql/pglite';
import { jobDriverModelCheck } from '@x/jobs-conformance';
import { pgliteJobDriver } from '@x/jobs-driver-pg/pglite';
import { afterAll, beforeAll } from 'vitest';
import { MODEL_CHECK_SEED, memoryModel } from './memory-model.js';

// One embedded instance for the file (seconds to start); each sequence gets its own driver on it.
let pglite: PGlite;
const schema = 'x_jobs_model';

beforeAll(async () => {
  pglite = await PGlite.create();
  await (await pgliteJobDriver({ pglite, schema })).close();
}, 180_000);
afterAll(() => pglite.close());

jobDriverModelCheck({
  name: 'pglite',
  create: () => pgliteJobDriver({ pglite, schema, migrate: false }),
  model: memoryModel,
  seed: MODEL_CHECK_SEED,
  numRuns: 80,
  maxOperations: 30,
});
