import type { CompleteJobDriver, JobIntrospection } from '@x/jobs-core';
import type { BackfillLedger, LeaseStore, ScheduleStore } from '@x/jobs-core/driver';
import { describe, expectTypeOf, it } from 'vitest';
import { memoryJobDriver } from './memory-job-driver.js';

describe('memoryJobDriver', () => {
  it('answers a CompleteJobDriver: introspect, leases, schedules and backfills are required', () => {
    const driver = memoryJobDriver();
    expectTypeOf(driver).toMatchTypeOf<CompleteJobDriver>();
    expectTypeOf(driver.introspect).toEqualTypeOf<JobIntrospection>();
    expectTypeOf(driver.leases).toEqualTypeOf<LeaseStore>();
    expectTypeOf(driver.schedules).toEqualTypeOf<ScheduleStore>();
    expectTypeOf(driver.backfills).toEqualTypeOf<BackfillLedger>();
  });
});
