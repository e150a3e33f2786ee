import { coreError } from '../errors/core-error.js';
import { definitionOf, isJobHandle } from '../job/definition-of.js';
import { failureOf } from '../steps/failure.js';
import type { AttemptScope } from './attempt-scope.js';
import type { AttemptOutcome } from './settlement.js';

/**
 * Phase 1, admit: finds the row's definition in the registry, parses the stored input with its
 * schema and checks the input's tenant against the row's. Sets `scope.definition` and
 * `scope.input`; answers undefined when the row may run, else why not:
 *
 * - no such job in this worker → `threw` `X_JOB_UNKNOWN` (a failed attempt by the default policy:
 *   another deployment may know it);
 * - input no longer matches the schema (`X_JOB_INPUT_INVALID`) or names another tenant
 *   (`X_JOB_TENANT_MISMATCH`) → `refused`: dead, terminal, the body never runs.
 */
export function admit(scope: AttemptScope): AttemptOutcome | undefined {
  const job = scope.job;
  const handle = scope.settings.registry.get(job.name);
  if (!isJobHandle(handle)) {
    return {
      kind: 'threw',
      error: coreError(
        'X_JOB_UNKNOWN',
        `No job named '${job.name}' is registered in this worker; register it with defineJobs (or deploy the worker that has it).`,
        { name: job.name },
      ),
    };
  }
  const definition = definitionOf(handle);
  scope.definition = definition;
  const parsed = definition.schema.safeParse(job.payload);
  if (!parsed.success) {
    const error = coreError(
      'X_JOB_INPUT_INVALID',
      `The stored input of job ${job.id} no longer matches '${job.name}''s schema.`,
      { issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), code: issue.code })) },
    );
    return { kind: 'refused', failure: failureOf(error) };
  }
  scope.input = parsed.data;
  scope.inputParsed = true;
  if (
    definition.tenant !== 'none' &&
    job.tenantId !== null &&
    definition.tenant(parsed.data) !== job.tenantId
  ) {
    const error = coreError(
      'X_JOB_TENANT_MISMATCH',
      `Job ${job.id} is queued for a tenant its input does not name; refusing to run it.`,
      { jobId: job.id },
    );
    return { kind: 'refused', failure: failureOf(error) };
  }
  return undefined;
}
