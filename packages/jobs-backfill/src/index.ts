export type { BackfillHandle } from './backfill.js';
export { backfill } from './backfill.js';
export type {
  BackfillCountArgs,
  BackfillDefinition,
  BackfillDefinitionBase,
  BackfillHandleArgs,
  BackfillJobInput,
  BackfillResult,
  PagedBackfillDefinition,
  SourcedBackfillDefinition,
} from './backfill-definition.js';
export {
  BACKFILL_ENVIRONMENT_VARIABLE,
  backfillEnvironment,
  environmentAllows,
} from './backfill-environment.js';
export type { BackfillPage, BackfillPagesArgs } from './backfill-page.js';
export type { BatchCheckpoint } from './backfill-pass.js';
export type { BackfillDeclaration, RegisteredBackfill } from './backfill-registry.js';
export { findBackfill, isBackfill, registeredBackfills } from './backfill-registry.js';
export type { BackfillErrorCode } from './errors.js';
export { BACKFILL_ERROR_CODES } from './errors.js';
export type { BackfillGate, BackfillGateInput } from './gate-backfill.js';
export { gateBackfill } from './gate-backfill.js';
export type { KeysetQuery, KeysetSource } from './keyset-source.js';
export type { PaceTimer } from './pace-timer.js';
export { systemPaceTimer } from './pace-timer.js';
export type {
  BackfillState,
  BackfillStateRow,
  PendingBackfills,
} from './pending-backfills.js';
export { ownsRun, pendingBackfills, UNSWEPT_STATES } from './pending-backfills.js';
export type { PurgeDefinition, PurgeHandle, PurgeResult } from './purge.js';
export { purge } from './purge.js';
export { DEFAULT_PURGE_CRON, purgeSchedule } from './purge-schedule.js';
export type { PurgeTarget, PurgeTargets } from './purge-target.js';
export type { QueueTargetOptions } from './queue-purge-targets.js';
export {
  DEFAULT_DONE_RETENTION,
  doneJobsPurgeTarget,
  expiredEventsPurgeTarget,
  queuePurgeTargets,
} from './queue-purge-targets.js';
export { DEFAULT_BACKFILL_BATCH, DEFAULT_BACKFILL_RATE } from './read-backfill-definition.js';
