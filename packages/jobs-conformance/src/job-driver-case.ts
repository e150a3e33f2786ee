import type { ConformanceCase } from './conformance-case.js';
import type { DriverHarness } from './driver-harness.js';

/** One behaviour of the `JobDriver` contract. */
export type JobDriverCase = ConformanceCase<DriverHarness>;
