import { describe, expectTypeOf, it } from 'vitest';
import type { BackfillLedger } from './backfill-ledger.js';
import type { JobIntrospection } from './introspection.js';
import type { CompleteJobDriver, JobDriver } from './job-driver.js';
import type { LeaseStore } from './lease-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { ScheduleStore } from './schedule-store.js';

describe('CompleteJobDriver', () => {
  it('has the four stores a JobDriver may leave out, required', () => {
    expectTypeOf<CompleteJobDriver['introspect']>().toEqualTypeOf<JobIntrospection>();
    expectTypeOf<CompleteJobDriver['leases']>().toEqualTypeOf<LeaseStore>();
    expectTypeOf<CompleteJobDriver['rateLimits']>().toEqualTypeOf<RateLimitStore>();
    expectTypeOf<CompleteJobDriver['schedules']>().toEqualTypeOf<ScheduleStore>();
    expectTypeOf<CompleteJobDriver['backfills']>().toEqualTypeOf<BackfillLedger>();
    expectTypeOf<JobDriver['introspect']>().toEqualTypeOf<JobIntrospection | undefined>();
  });

  it('is a JobDriver, and a bare JobDriver is not one', () => {
    expectTypeOf<CompleteJobDriver>().toMatchTypeOf<JobDriver>();
    expectTypeOf<JobDriver>().not.toMatchTypeOf<CompleteJobDriver>();
  });
});
