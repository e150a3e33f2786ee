export type { DrainReport, JobTestHarness, JobTestHarnessOptions } from './job-test-harness.js';
export { createJobTestHarness } from './job-test-harness.js';
export type { StepCount, StepTrace } from './step-trace.js';
export { stepTraceRecorder } from './step-trace.js';
