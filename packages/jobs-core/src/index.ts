export { jobDriver, maybeJobDriver, resetJobDriver, setJobDriver } from './ambient/driver-slot.js';
export type { JobsFacade } from './ambient/facade.js';
export { directFacade, jobsFacade, setJobsFacade } from './ambient/facade.js';
export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export * from './driver/index.js';
export type { Duration, DurationUnit } from './duration.js';
export { parseDuration } from './duration.js';
export type { CoreErrorCode } from './errors/codes.js';
export { CORE_ERROR_CODES } from './errors/codes.js';
export { errorCode, isJobsError, JobsError } from './errors/jobs-error.js';
export type { JsonObject, JsonValue } from './json.js';
export type { Registrable, RegistrableHooks } from './registry/registrable.js';
export {
  isRegistrable,
  nextAnonymousName,
  REGISTRABLE,
  reserveDeclaredName,
} from './registry/registrable.js';
