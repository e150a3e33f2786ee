import type { JobDriver } from '../driver/job-driver.js';

/**
 * The stores of a {@link JobDriver}: its object members whose methods belong to the contract
 * (`wake` is a subscription, not a store). `refuseAfterClose` guards each of them, and the
 * conformance suite calls every method of each after `close()`. The list is checked against
 * `JobDriver` when core compiles, so a store added to the contract cannot be left out.
 */
export const DRIVER_STORES = [
  'steps',
  'events',
  'introspect',
  'leases',
  'rateLimits',
  'schedules',
  'backfills',
] as const;

/** A member name of {@link DRIVER_STORES}. */
export type DriverStoreName = (typeof DRIVER_STORES)[number];

/** The object-valued members of `JobDriver` other than `wake`: what {@link DRIVER_STORES} must list. */
type StoreMembersOfContract = Exclude<
  {
    [K in keyof JobDriver]-?: NonNullable<JobDriver[K]> extends (...args: never[]) => unknown
      ? never
      : NonNullable<JobDriver[K]> extends object
        ? K
        : never;
  }[keyof JobDriver],
  'wake'
>;

// Fails to compile when the contract gains a store the list lacks (or the list names a non-store).
const exhaustive: [
  Exclude<StoreMembersOfContract, DriverStoreName>,
  Exclude<DriverStoreName, StoreMembersOfContract>,
] extends [never, never]
  ? true
  : never = true;
void exhaustive;
