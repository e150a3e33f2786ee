import { attemptCases } from './cases/attempt-cases.js';
import { attemptErrorCases } from './cases/attempt-error-cases.js';
import { backfillCases } from './cases/backfill-cases.js';
import { boundCases } from './cases/bound-cases.js';
import { cancelCases } from './cases/cancel-cases.js';
import { claimCases } from './cases/claim-cases.js';
import { claimableCases } from './cases/claimable-cases.js';
import { dueStatsCases } from './cases/due-stats-cases.js';
import { enqueueCases } from './cases/enqueue-cases.js';
import { eventCases } from './cases/event-cases.js';
import { fairnessCases } from './cases/fairness-cases.js';
import { fencingCases } from './cases/fencing-cases.js';
import { fencingTokenCases } from './cases/fencing-token-cases.js';
import { finishAgeCases } from './cases/finish-age-cases.js';
import { identityCases } from './cases/identity-cases.js';
import { introspectionCases } from './cases/introspection-cases.js';
import { keyReleaseCases } from './cases/key-release-cases.js';
import { leaseCases } from './cases/lease-cases.js';
import { lifecycleCases } from './cases/lifecycle-cases.js';
import { listingOrderCases } from './cases/listing-order-cases.js';
import { nackCases } from './cases/nack-cases.js';
import { oldestDueCases } from './cases/oldest-due-cases.js';
import { operatorRefusalCases } from './cases/operator-refusal-cases.js';
import { orderCases } from './cases/order-cases.js';
import { peerCases } from './cases/peer-cases.js';
import { preservationCases } from './cases/preservation-cases.js';
import { promoteDueCases } from './cases/promote-due-cases.js';
import { rateLimitCases } from './cases/rate-limit-cases.js';
import { scheduleCases } from './cases/schedule-cases.js';
import { settleReadCases } from './cases/settle-read-cases.js';
import { settleWakeCases } from './cases/settle-wake-cases.js';
import { startedRetryCases } from './cases/started-retry-cases.js';
import { statsCases } from './cases/stats-cases.js';
import { stepCases } from './cases/step-cases.js';
import { suspendGapCases } from './cases/suspend-gap-cases.js';
import { terminalCases } from './cases/terminal-cases.js';
import { unknownNameCases } from './cases/unknown-name-cases.js';
import { valueCases } from './cases/value-cases.js';
import { visibilityCases } from './cases/visibility-cases.js';
import { wakeCases } from './cases/wake-cases.js';
import { wakeTransitionCases } from './cases/wake-transition-cases.js';
import type { JobDriverCase } from './job-driver-case.js';

/** Every case of the `JobDriver` contract except the push wake, in registration order. */
export const JOB_DRIVER_CASES: readonly JobDriverCase[] = [
  ...enqueueCases,
  ...claimCases,
  ...visibilityCases,
  ...attemptCases,
  ...startedRetryCases,
  ...fencingCases,
  ...nackCases,
  ...attemptErrorCases,
  ...cancelCases,
  ...stepCases,
  ...eventCases,
  ...leaseCases,
  ...rateLimitCases,
  ...scheduleCases,
  ...backfillCases,
  ...introspectionCases,
  ...finishAgeCases,
  ...promoteDueCases,
  ...statsCases,
  ...lifecycleCases,
  ...identityCases,
  ...boundCases,
  ...orderCases,
  ...terminalCases,
  ...fencingTokenCases,
  ...preservationCases,
  ...dueStatsCases,
  ...oldestDueCases,
  ...valueCases,
  ...fairnessCases,
  ...claimableCases,
  ...keyReleaseCases,
  ...operatorRefusalCases,
  ...suspendGapCases,
  ...listingOrderCases,
  ...unknownNameCases,
];

/** The cases of the optional `driver.wake`, skipped (reported as not certified) under `wake: false`. */
export const WAKE_CASES: readonly JobDriverCase[] = [
  ...wakeCases,
  ...wakeTransitionCases,
  ...settleWakeCases,
  ...settleReadCases,
];

/**
 * The cases for two instances of one driver over the same backend (`openPeer`): what one writes the
 * other claims and settles, and one's settles reach the other's `awaitResult` through the settle wake.
 */
export const PEER_CASES: readonly JobDriverCase[] = peerCases;
