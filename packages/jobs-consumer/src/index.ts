export type { ArmJob, ArmResult } from './arm-job.js';
export type { ConsumerHandle } from './consumer.js';
export { consumer } from './consumer.js';
export type {
  ConsumerCursorStore,
  ConsumerDefinition,
  ConsumerHandleArgs,
  ConsumerInput,
  ConsumerOpenArgs,
  ConsumerRunResult,
} from './consumer-definition.js';
export type { ConsumerSupervisorTask } from './consumer-supervisor.js';
export { consumerArm, consumerSupervisor } from './consumer-supervisor.js';
export type { ConsumerErrorCode } from './errors.js';
export { CONSUMER_ERROR_CODES } from './errors.js';
export { rearmCron } from './rearm-cron.js';
export {
  DEFAULT_CONSUMER_BATCH,
  DEFAULT_CONSUMER_FLUSH_AFTER_MS,
  DEFAULT_CONSUMER_REARM,
} from './resolve-consumer.js';
