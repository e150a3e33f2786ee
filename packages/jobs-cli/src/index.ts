// The read models `x-jobs` prints live in @x/jobs-dashboard, which the dashboard shows too.
export type {
  JobDetailView,
  JobListJson,
  JobSummaryView,
  LsJson,
  QueueView,
  ShowJson,
  StepView,
} from '@x/jobs-dashboard';
export { DEFAULT_REDACTED_KEYS, REDACTED } from '@x/jobs-dashboard';
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
export type { HealthJson, ProbeJson } from './commands/health.js';
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
