export type { BootHook, BootInput, BootResult } from './app-module/boot-hook.js';
export type { DriverKind } from './backend/backend-choice.js';
export type {
  BackfillListJson,
  BackfillPendingJson,
  BackfillRunView,
  BackfillStateName,
  BackfillStateView,
  BackfillSweepJson,
  FailureView,
} from './commands/backfill-views.js';
export type { CancelJson } from './commands/cancel.js';
export type { DashboardJson } from './commands/dashboard.js';
export type { EnqueueJson } from './commands/enqueue.js';
export type { ManifestJson } from './commands/manifest.js';
export type { MigrateJson } from './commands/migrate.js';
export type { PauseJson } from './commands/pause.js';
export type { PromoteJson } from './commands/promote.js';
export type { RemoveJson } from './commands/remove.js';
export type { ResolveStepJson } from './commands/resolve-step.js';
export type { RetryJson } from './commands/retry.js';
export type { OccurrenceView, TasksJson, TaskView } from './commands/tasks.js';
export type { WorkersJson } from './commands/workers.js';
export type { CliErrorCode } from './errors.js';
export { CLI_ERROR_CODES } from './errors.js';
export { DEFAULT_REDACTED_KEYS, REDACTED } from './redact.js';
export type { JobDetailView, ShowJson, StepView } from './views/job-detail-view.js';
export type { JobListJson, JobSummaryView } from './views/job-summary-view.js';
export type { LsJson, QueueView } from './views/queue-view.js';
