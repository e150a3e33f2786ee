// The four-line certification file of the conformance README, on its own schema (the suite's
// purge is global, so no other test file may share it), dropped afterwards.
import { afterAll } from 'vitest';
import { DATABASE_URL } from './database-url.js';
import { dropSchema, scratchSchemaName } from './scratch-schema.js';

const schema = scratchSchemaName('four_lines');
afterAll(() => dropSchema(schema));

// The four lines (the driver migrates its schema on first use). Real time passes here: a tick of
// 1 s keeps the timing cases' margins above a loaded machine's scheduling delays.
import { jobDriverConformance } from '@x/jobs-conformance';
import { postgresJobDriver } from '@x/jobs-driver-pg';

jobDriverConformance({
  name: 'postgres (the four-line file)',
  create: () => postgresJobDriver({ connectionString: DATABASE_URL }, { schema }),
  tickMs: 1_000,
});
