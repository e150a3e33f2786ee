export { DEFAULT_REDACTED_KEYS, REDACTED, redactJson } from '@x/jobs-core';
export type { DashboardErrorCode } from './errors.js';
export { DASHBOARD_ERROR_CODES, DASHBOARD_ERROR_STATUS } from './errors.js';
export { formatDuration } from './format/format-duration.js';
export { formatInstant, formatInZone, formatRelative, formatWhen } from './format/format-time.js';
export { CSRF_HEADER, SESSION_COOKIE } from './http/access.js';
export type { DashboardHandler } from './http/create-dashboard.js';
export { createDashboard } from './http/create-dashboard.js';
export type { AuthorizeContext, DashboardOptions } from './http/dashboard-options.js';
export type { NodeListener, NodeMiddleware } from './http/node-adapter.js';
export { toNodeListener, toNodeMiddleware, toWebRequest, writeWebResponse } from './http/node-adapter.js';
export { CONTENT_SECURITY_POLICY } from './http/responses.js';
export type { JobAction, JobActionKind, JobActionResult } from './operate/job-action.js';
export { applyJobAction, refusal, setQueuePaused } from './operate/job-action.js';
export type {
  CronTaskLike,
  CronTasksJson,
  CronTasksSource,
  CronTaskView,
  OccurrenceView,
} from './read/cron-task-view.js';
export { readCronTasks } from './read/cron-task-view.js';
export type { JobDetailView, ShowJson, StepView } from './read/job-detail-view.js';
export { readJobDetail, toJobDetailView } from './read/job-detail-view.js';
export type { JobEvent, JobEventKind, JobSighting } from './read/job-events.js';
export { jobEvents } from './read/job-events.js';
export type { JobFilter } from './read/job-filter.js';
export { DEFAULT_PAGE_SIZE, isJobState, parseJobFilter, toListQuery } from './read/job-filter.js';
export type { JobListJson, JobSummaryView } from './read/job-summary-view.js';
export { toJobSummary } from './read/job-summary-view.js';
export type { JobTailOptions } from './read/job-tail.js';
export { JobTail } from './read/job-tail.js';
export { listJobs } from './read/list-jobs.js';
export type { LsJson, QueueView } from './read/queue-view.js';
export { readQueues, toQueueViews } from './read/queue-view.js';
export { requireIntrospection } from './read/require-introspection.js';
export type { TimelineEntry, TimelineKind } from './read/timeline.js';
export { toTimeline } from './read/timeline.js';
export { whyStopped } from './read/why-stopped.js';
export type { WorkersJson, WorkerView } from './read/worker-view.js';
export { readWorkers } from './read/worker-view.js';
