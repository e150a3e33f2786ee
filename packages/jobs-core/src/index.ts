export { jobDriver, maybeJobDriver, resetJobDriver, setJobDriver } from './ambient/driver-slot.js';
export type { JobsFacade } from './ambient/facade.js';
export { directFacade, jobsFacade, setJobsFacade } from './ambient/facade.js';
export { currentJobRun, disableCurrentJobRun } from './ambient/job-run-storage.js';
export type { ExecuteJobOptions, ExecutionResult, HandleSource } from './attempt/execute-job.js';
export {
  CONCURRENCY_BUSY_RETRY_MS,
  DEFAULT_EVENT_POLL_MS,
  DEFAULT_SETTLED_TIMEOUT_MS,
  executeJob,
} from './attempt/execute-job.js';
export {
  awaitResult,
  DEFAULT_RESULT_POLL_MS,
  DEFAULT_RESULT_POLL_WITH_SETTLE_WAKE_MS,
} from './caller/await-result.js';
export { cancelJob, tryCancelJob } from './caller/cancel-job.js';
export { DEFAULT_EVENT_TTL_MS, publishEvent } from './caller/publish-event.js';
export type { DefineJobsInput } from './declare/define-jobs.js';
export { defineJobs } from './declare/define-jobs.js';
export { job } from './declare/job.js';
export type { AttemptErrorRecord, AttemptFailure, ErrorCauseRecord } from './driver/attempt-error.js';
export { ATTEMPT_ERROR_LIMITS } from './driver/attempt-error.js';
export type { JobIntrospection, JobListQuery, JobPage, StepResolution } from './driver/introspection.js';
export type { CompleteJobDriver, JobDriver } from './driver/job-driver.js';
export type { JobDetail, JobRecord } from './driver/job-record.js';
export type { JobErrorRecord, JobState, StopReason } from './driver/job-state.js';
export { isLiveState, JOB_STATES, LIVE_JOB_STATES } from './driver/job-state.js';
export type { QueueStats } from './driver/stats.js';
export type { StepRecord, StepStatus } from './driver/step-store.js';
export type { WorkerInfo } from './driver/worker-info.js';
export type { FailurePlace } from './driver-kit/attempt-failure-of.js';
export { attemptFailureOf } from './driver-kit/attempt-failure-of.js';
export { failureStack } from './driver-kit/failure-stack.js';
export { ENQUEUE_MANY_CHUNK, ENQUEUE_MANY_MAX } from './enqueue/enqueue-many.js';
export type { InputIssue } from './enqueue/parse-input.js';
export { ChildJobError } from './errors/child-job-error.js';
export type { CoreErrorCode } from './errors/codes.js';
export { CORE_ERROR_CODES } from './errors/codes.js';
export type { ConfigurationErrorCode } from './errors/configuration-error.js';
export {
  CONFIGURATION_ERROR_CODES,
  configurationError,
  isConfigurationError,
} from './errors/configuration-error.js';
export { errorCode, isJobsError, JobsError } from './errors/jobs-error.js';
export { attemptsLabel } from './job/attempt-budget.js';
export type { AwaitResultOptions } from './job/await-result-options.js';
export { isJobHandle } from './job/definition-of.js';
export type { EnqueueManyOptions, EnqueueOptions } from './job/enqueue-options.js';
export type { EnqueuedJob } from './job/enqueued-job.js';
export type { JobActor } from './job/job-actor.js';
export type { JobContext, JobRunContext } from './job/job-context.js';
export type { JobConcurrency, JobDefinition, JobRateLimit } from './job/job-definition.js';
export type { JobDescriptor } from './job/job-descriptor.js';
export type {
  AnyJobHandle,
  EnqueueInputOf,
  JobHandle,
  JobInputOf,
  JobResultOf,
  ResolvedJobConcurrency,
} from './job/job-handle.js';
export type { RunArgs } from './job/run-args.js';
export type { Settled, SettledOutcome } from './job/settled.js';
export type {
  CompensateContext,
  InvokeOptions,
  ReservedStepName,
  StepApi,
  StepCompensateOption,
  StepNameCheck,
  StepOutput,
  StepRunOptions,
  WaitForEventOptions,
} from './job/step-api.js';
export { assertStepName, COMPENSATE_STEP_PREFIX, UNWINDING_STEP } from './job/step-name.js';
export { UNWIND_MARGIN } from './job/unwind-margin.js';
export type { Clock } from './primitives/clock.js';
export { systemClock } from './primitives/clock.js';
export type { JobManifest, JobRegistry } from './registry/job-registry.js';
export { inspectManifest, jobRegistry, resetRegistry } from './registry/process-registry.js';
export type { CheckReplayOptions, ReplayRun } from './replay-check/check-replay.js';
export { checkReplay } from './replay-check/check-replay.js';
export type {
  ReplayCheckResult,
  ReplayDivergence,
  ReplayStepRef,
} from './replay-check/replay-check-result.js';
export type { ReplayStepKind } from './replay-check/step-kind.js';
export type { DecideRetryInput } from './retry/decide-retry.js';
export { decideRetry } from './retry/decide-retry.js';
export { errorRetryClass, registerErrorRetry } from './retry/error-retry.js';
export type { ErrorRetryClass, RetryDecision } from './retry/retry-decision.js';
export type { Backoff, ResolvedRetryPolicy, RetryPolicy } from './retry/retry-policy.js';
export { DEFAULT_RETRY_POLICY, resolveRetryPolicy } from './retry/retry-policy.js';
export { backoffDelay, retrySchedule } from './retry/retry-schedule.js';
export type { ExecutionObserver } from './steps/execution-observer.js';
export { isStepSuspension, StepSuspension } from './steps/step-suspension.js';
export type { ExecutionOutcome } from './telemetry/execution-outcome.js';
export type { JobMetrics, JobOutcomeLabel } from './telemetry/job-metrics.js';
export { METER_NAME } from './telemetry/job-metrics.js';
export { TRACER_NAME } from './telemetry/job-tracing.js';
export type { JobsLogger, LogLevel } from './telemetry/logger.js';
export { jsonLinesLogger, recordingLogger, silentLogger } from './telemetry/logger.js';
export { MESSAGING_SYSTEM } from './telemetry/messaging-attributes.js';
export { CORE_VERSION } from './telemetry/version.js';
export { crossTenant } from './values/cross-tenant.js';
export type { Duration, DurationUnit } from './values/duration.js';
export { parseDuration } from './values/duration.js';
export type { JsonObject, JsonValue } from './values/json.js';
export type { JsonForm } from './values/json-form.js';
export { DEFAULT_REDACTED_KEYS, REDACTED, redactJson } from './values/redact-json.js';
export { redactText } from './values/redact-text.js';
export { storableJsonForm, storableValueIssue } from './values/storable-value.js';
export type { StringIssueCode } from './values/string-rule.js';
export { storableText } from './values/string-rule.js';
export type { ValueIssue, ValueIssueCode } from './values/value-issue.js';
export { VALUE_LIMITS } from './values/value-limits.js';
export { createWorker } from './worker/create-worker.js';
export type { HealthHandlerOptions, HealthRequest, HealthResponse } from './worker/health-handler.js';
export { healthHandler } from './worker/health-handler.js';
export type { LimitConfig } from './worker/limit-config.js';
export type { WorkerHealth } from './worker/worker-health.js';
export { defaultStallMs } from './worker/worker-health.js';
export type { Worker, WorkerOptions, WorkerStats } from './worker/worker-options.js';
