import type { JobManifest, JobRegistry } from './job-registry.js';
import { RegistryTable } from './job-registry.js';

/** Every handle any `defineJobs` call registered in this process. */
export const processTable = new RegistryTable();

/**
 * The process-wide registry: the union of every `defineJobs` call. The worker and the scheduler
 * default to it, and `inspectManifest()` reads it.
 */
export function jobRegistry(): JobRegistry {
  return processTable;
}

/** Every registered job's and task's `describe()`: what the CLI, dashboards and `x-jobs tasks` list. */
export function inspectManifest(): JobManifest {
  return processTable.manifest();
}

/**
 * Test-only: forgets every process-wide registration so a test can register again. Handles keep
 * the names they were stamped with, and `name:` reservations made by `job()` stay.
 */
export function resetRegistry(): void {
  processTable.clear();
}
