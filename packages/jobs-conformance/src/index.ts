export type { RestartSubject } from './backend-restart.js';
export { expectHealthAcrossRestart, readyFailure } from './backend-restart.js';
export type { JobDriverCaseResult } from './case-certification.js';
export { TRICKY_NUMBERS, TRICKY_STRINGS, trickyPayload } from './cases/value-cases.js';
export type { ConformanceCase } from './conformance-case.js';
export type { ConformanceSubject, DriverHarness, HarnessClaimOptions } from './driver-harness.js';
export { createDriverHarness } from './driver-harness.js';
export type { ConformanceErrorCode } from './errors.js';
export { CONFORMANCE_ERROR_CODES } from './errors.js';
export type { FairFleet } from './fair-fleet.js';
export { fairFleetOrders, forkFairFleet, serveFairFleetMessages } from './fair-fleet.js';
export type { DriverSetup, JobDriverCase } from './job-driver-case.js';
export { JOB_DRIVER_CASES, PEER_CASES, WAKE_CASES } from './job-driver-cases.js';
export type { JobDriverConformanceOptions } from './job-driver-conformance.js';
export { jobDriverConformance, runJobDriverCase } from './job-driver-conformance.js';
export type { JobDriverModelCheckOptions } from './model-check/job-driver-model-check.js';
export { jobDriverModelCheck, runJobDriverModelCheck } from './model-check/job-driver-model-check.js';
export type {
  OutboxStoreCase,
  OutboxStoreConformanceOptions,
  OutboxStoreHarness,
  OutboxStoreSubject,
} from './outbox-store-conformance.js';
export {
  OUTBOX_STORE_CASES,
  outboxStoreConformance,
  runOutboxStoreCase,
} from './outbox-store-conformance.js';
export type { WakeOnlyReads } from './wake-only-reads.js';
export { wakeOnlyReads } from './wake-only-reads.js';
export type { HealthReached } from './worker-probes.js';
export { enqueueAndAwaitDone, healthUntil } from './worker-probes.js';
export type { WorkerProcessExit, WorkerProcessOptions } from './worker-process.js';
export { markdownCodeBlocks, runWorkerProcess } from './worker-process.js';
