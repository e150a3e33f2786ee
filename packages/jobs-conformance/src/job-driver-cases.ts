import { claimCases } from './cases/claim-cases.js';
import { enqueueCases } from './cases/enqueue-cases.js';
import { fencingCases } from './cases/fencing-cases.js';
import { visibilityCases } from './cases/visibility-cases.js';
import type { JobDriverCase } from './job-driver-case.js';

/** Every case of the `JobDriver` contract, in registration order. */
export const JOB_DRIVER_CASES: readonly JobDriverCase[] = [
  ...enqueueCases,
  ...claimCases,
  ...visibilityCases,
  ...fencingCases,
];
