import type { CompleteJobDriver, JobIntrospection } from '@x/jobs-core';
import type { BackfillLedger, LeaseStore, ScheduleStore } from '@x/jobs-core/driver';
import { describe, expectTypeOf, it } from 'vitest';
import type { pgliteJobDriver } from './pglite/pglite-job-driver.js';
import type { postgresJobDriver } from './postgres-job-driver.js';

describe('postgresJobDriver and pgliteJobDriver', () => {
  it('answer a CompleteJobDriver: introspect, leases, schedules and backfills are required', () => {
    type Postgres = ReturnType<typeof postgresJobDriver>;
    type Pglite = Awaited<ReturnType<typeof pgliteJobDriver>>;
    expectTypeOf<Postgres>().toMatchTypeOf<CompleteJobDriver>();
    expectTypeOf<Pglite>().toMatchTypeOf<CompleteJobDriver>();
    expectTypeOf<Postgres['introspect']>().toEqualTypeOf<JobIntrospection>();
    expectTypeOf<Postgres['leases']>().toEqualTypeOf<LeaseStore>();
    expectTypeOf<Postgres['schedules']>().toEqualTypeOf<ScheduleStore>();
    expectTypeOf<Postgres['backfills']>().toEqualTypeOf<BackfillLedger>();
  });
});
