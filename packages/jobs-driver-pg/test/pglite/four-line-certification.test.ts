// The four-line certification file of the conformance README on PGlite. One PGlite instance
// serves every case (each case's own instance would take ~700 MB and seconds to start).
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';

let pglite: PGlite;
beforeAll(async () => {
  pglite = await PGlite.create();
}, 180_000);
afterAll(() => pglite.close());

// The four lines:
import { jobDriverConformance } from '@x/jobs-conformance';
import { pgliteJobDriver } from '@x/jobs-driver-pg/pglite';

jobDriverConformance({ name: 'pglite (the four-line file)', create: () => pgliteJobDriver({ pglite }) });
