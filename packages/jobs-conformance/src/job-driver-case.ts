import type { QueueOptionsMap } from '@x/jobs-core/driver';
import type { ConformanceCase } from './conformance-case.js';
import type { DriverHarness } from './driver-harness.js';

/**
 * What a case needs of the driver it is given: `create(setup)` answers a driver made with
 * `queues: setup.queues` (a driver factory's per-queue settings, `QueueOptions`).
 */
export interface DriverSetup {
  /** Per-queue settings to make the driver with. Empty for every case but those that need one. */
  readonly queues: QueueOptionsMap;
}

/** One behaviour of the `JobDriver` contract. */
export interface JobDriverCase extends ConformanceCase<DriverHarness> {
  /**
   * The driver settings this case needs, given the harness queue (`h.queue`) it will run on.
   * (Default: no queue settings)
   */
  readonly setup?: (queue: string) => DriverSetup;
}
