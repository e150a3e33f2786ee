import type { CompleteJobDriver, JobIntrospection } from '@x/jobs-core';
import type { BackfillLedger, LeaseStore, ScheduleStore } from '@x/jobs-core/driver';
import { describe, expectTypeOf, it } from 'vitest';
import type { redisJobDriver } from './redis-job-driver.js';

describe('redisJobDriver', () => {
  it('answers a CompleteJobDriver: introspect, leases, schedules and backfills are required', () => {
    type Driver = ReturnType<typeof redisJobDriver>;
    expectTypeOf<Driver>().toMatchTypeOf<CompleteJobDriver>();
    expectTypeOf<Driver['introspect']>().toEqualTypeOf<JobIntrospection>();
    expectTypeOf<Driver['leases']>().toEqualTypeOf<LeaseStore>();
    expectTypeOf<Driver['schedules']>().toEqualTypeOf<ScheduleStore>();
    expectTypeOf<Driver['backfills']>().toEqualTypeOf<BackfillLedger>();
  });
});
