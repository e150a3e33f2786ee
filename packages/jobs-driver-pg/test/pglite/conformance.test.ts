import { PGlite } from '@electric-sql/pglite';
import { jobDriverConformance } from '@x/jobs-conformance';
import { afterAll, beforeAll } from 'vitest';
import { pgliteJobDriver } from '../../src/pglite/pglite-job-driver.js';

// One PGlite instance for the whole file (~700 MB and seconds to start); every case gets its own
// driver over it. Cases use unique queue names, so they share the schema.
let pglite: PGlite;
const schema = 'x_jobs_conformance';

beforeAll(async () => {
  pglite = await PGlite.create();
  const first = await pgliteJobDriver({ pglite, schema });
  await first.close();
});
afterAll(async () => {
  await pglite.close();
});

jobDriverConformance({
  name: 'pglite',
  create: () => pgliteJobDriver({ pglite, schema, migrate: false }),
});
