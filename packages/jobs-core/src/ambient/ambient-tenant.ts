import { coreError } from '../errors/core-error.js';
import { crossTenantReason } from '../values/cross-tenant.js';
import { maybeCurrentJobRun } from './job-run-storage.js';

/**
 * The ambient tenant rule: inside a job run acting for an org (its `actor.orgId`), an enqueue whose
 * payload names another org is `X_JOB_TENANT_MISMATCH` (`meta.source: 'ambient'`) before anything
 * is staged, unless it runs inside {@link crossTenant}. A run of no tenant (`orgId: null`), code
 * outside any run, and a job of `tenant: 'none'` (`derived` null) are not constrained.
 */
export function checkAmbientTenant(job: string, derived: string | null): void {
  if (derived === null) return;
  const run = maybeCurrentJobRun();
  const ambient = run?.actor.orgId;
  if (ambient === undefined || ambient === null || ambient === derived) return;
  if (crossTenantReason() !== undefined) return;
  throw coreError(
    'X_JOB_TENANT_MISMATCH',
    `${job}: enqueued from a run of ${run?.name ?? 'a job'} acting for another tenant than the input names; enqueue for the run's own tenant, or wrap the call in crossTenant(reason, fn).`,
    { job, source: 'ambient', runId: run?.runId },
  );
}
