import { AsyncLocalStorage } from 'node:async_hooks';
import { coreError } from '../errors/core-error.js';

/** Holds the reason of the innermost {@link crossTenant} scope; created on first use. */
let scope: AsyncLocalStorage<string> | undefined;

/**
 * Runs `fn` with the ambient tenant check lifted: inside it, a job body acting for one org may
 * enqueue jobs whose payload names another (a fan-out across tenants, a platform job). The only
 * escape from `X_JOB_TENANT_MISMATCH` on the ambient run's tenant; an explicit `tenantId` or an
 * `.as()` actor that contradicts the payload is refused even here. `reason` is required (a
 * non-empty string, else `X_JOB_ENQUEUE_OPTIONS_INVALID`) so every crossing says why.
 *
 * ```ts
 * await crossTenant('nightly billing runs for every org', () =>
 *   chargeOrg.enqueueMany(orgs.map((orgId) => ({ orgId }))));
 * ```
 */
export function crossTenant<T>(reason: string, fn: () => T): T {
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw coreError('X_JOB_ENQUEUE_OPTIONS_INVALID', 'crossTenant: reason must be a non-empty string.', {
      field: 'reason',
    });
  }
  if (typeof fn !== 'function') {
    throw coreError('X_JOB_ENQUEUE_OPTIONS_INVALID', 'crossTenant: fn must be a function.', { field: 'fn' });
  }
  scope ??= new AsyncLocalStorage<string>();
  return scope.run(reason, fn);
}

/** The reason of the {@link crossTenant} scope this code runs in, or undefined outside one. */
export function crossTenantReason(): string | undefined {
  return scope?.getStore();
}
