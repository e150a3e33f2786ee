/**
 * `@x/jobs-core/driver`: the surface for code that plugs into core rather than defines jobs —
 * driver authors (the `JobDriver` contract and its stores), facades and relays (`prepareEnqueue`),
 * and packages that declare registrable things (`REGISTRABLE`). Apps import `@x/jobs-core`.
 *
 * @packageDocumentation
 */
export * from './driver/index.js';
export { attemptFailureOf } from './driver-kit/attempt-failure-of.js';
export type { BackendClockOptions, ClockSample } from './driver-kit/backend-clock.js';
export {
  BACKEND_CLOCK_RESYNC_MS,
  BackendClock,
  offsetFromSamples,
  WALL_STEP_TOLERANCE_MS,
} from './driver-kit/backend-clock.js';
export { CallBatcher } from './driver-kit/call-batcher.js';
export { DRIVER_STORES, type DriverStoreName } from './driver-kit/driver-stores.js';
export type { FairCandidate, FairService, FairTake } from './driver-kit/fair-order.js';
export { fairOrder } from './driver-kit/fair-order.js';
export type { FairPolicy } from './driver-kit/fair-policy.js';
export { FAIR_SERVICE_UNIT, fairCost } from './driver-kit/fair-policy.js';
export { jsonContains } from './driver-kit/json-contains.js';
export { isNetworkErrorCode, NETWORK_ERROR_CODES } from './driver-kit/network-errors.js';
export type { QueueSettings } from './driver-kit/queue-settings.js';
export { isFairClaim, parseQueueOptions } from './driver-kit/queue-settings.js';
export type { GuardableDriver, MaybeSyncMembers, MaybeSyncMethod } from './driver-kit/refuse-after-close.js';
export { driverClosedError, refuseAfterClose } from './driver-kit/refuse-after-close.js';
export {
  parseSettledMessage,
  SETTLED_MESSAGE_MAX_BYTES,
  settledMessage,
} from './driver-kit/settled-message.js';
export { prepareEnqueue } from './enqueue/prepare-enqueue.js';
export { activeTraceparent } from './enqueue/traceparent.js';
export type { CoreErrorCode } from './errors/codes.js';
export { CORE_ERROR_CODES } from './errors/codes.js';
export type { ConfigurationErrorCode } from './errors/configuration-error.js';
export {
  CONFIGURATION_ERROR_CODES,
  configurationError,
  isConfigurationError,
} from './errors/configuration-error.js';
export { errorCode, isJobsError, JobsError } from './errors/jobs-error.js';
export type { PrepareEnqueueOptions } from './job/enqueue-options.js';
export type { Registrable, RegistrableHooks } from './job/registrable.js';
export {
  isRegistrable,
  nextAnonymousName,
  REGISTRABLE,
  reserveDeclaredName,
} from './job/registrable.js';
export type { JsonObject, JsonValue } from './values/json.js';
