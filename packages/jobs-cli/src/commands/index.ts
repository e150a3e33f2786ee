import type { RegisterCommand } from '../program.js';
import { registerBackfill } from './backfill.js';
import { registerCancel } from './cancel.js';
import { registerCheckReplay } from './check-replay.js';
import { registerDashboard } from './dashboard.js';
import { registerDead } from './dead.js';
import { registerDev } from './dev.js';
import { registerEnqueue } from './enqueue.js';
import { registerHealth } from './health.js';
import { registerJobs } from './jobs.js';
import { registerLs } from './ls.js';
import { registerManifest } from './manifest.js';
import { registerMigrate } from './migrate.js';
import { registerPause } from './pause.js';
import { registerPromote } from './promote.js';
import { registerRemove } from './remove.js';
import { registerResolveStep } from './resolve-step.js';
import { registerRetry } from './retry.js';
import { registerScheduler } from './scheduler.js';
import { registerShow } from './show.js';
import { registerTail } from './tail.js';
import { registerTasks } from './tasks.js';
import { registerWorker } from './worker.js';
import { registerWorkers } from './workers.js';

/** Every `x-jobs` command, in the order `--help` lists them. */
export const COMMANDS: readonly RegisterCommand[] = [
  registerMigrate,
  registerLs,
  registerJobs,
  registerShow,
  registerDead,
  registerRetry,
  registerCancel,
  registerPromote,
  registerRemove,
  registerPause,
  registerWorkers,
  registerHealth,
  registerEnqueue,
  registerTail,
  registerDashboard,
  registerResolveStep,
  registerCheckReplay,
  registerTasks,
  registerBackfill,
  registerManifest,
  registerWorker,
  registerScheduler,
  registerDev,
];
