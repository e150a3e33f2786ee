import { checkAmbientTenant } from '../ambient/ambient-tenant.js';
import { coreError } from '../errors/core-error.js';
import type { ResolvedJobDefinition } from '../job/definition-of.js';
import type { PrepareEnqueueOptions } from '../job/enqueue-options.js';
import { VALUE_LIMITS } from '../values/value-limits.js';
import { deriveIdentity } from './derive-identity.js';

/**
 * The tenant a request carries: null for a `tenant: 'none'` job (which accepts only a null
 * `tenantId` and ignores the actor's org), else `tenant(parsed)`. `X_JOB_TENANT_MISMATCH` when an
 * explicit `tenantId` (`meta.source: 'tenantId'`), the actor's non-null org (`'actor'`) or the
 * ambient run's tenant outside `crossTenant` (`'ambient'`) contradicts it.
 */
export function resolveTenant(
  name: string,
  definition: ResolvedJobDefinition,
  parsed: unknown,
  options: PrepareEnqueueOptions,
): string | null {
  if (definition.tenant === 'none') {
    if (options.tenantId !== undefined && options.tenantId !== null) {
      throw coreError(
        'X_JOB_TENANT_MISMATCH',
        `${name}: declares tenant: 'none', so an explicit tenantId is a contradiction; drop it.`,
        { job: name, source: 'tenantId' },
      );
    }
    return null;
  }
  const tenantOf = definition.tenant;
  const derived = deriveIdentity(name, 'tenant', VALUE_LIMITS.tenantBytes, () => tenantOf(parsed));
  if (options.tenantId !== undefined && options.tenantId !== derived) {
    throw coreError(
      'X_JOB_TENANT_MISMATCH',
      `${name}: the explicit tenantId differs from the tenant the input names; enqueue under the input's tenant.`,
      { job: name, source: 'tenantId' },
    );
  }
  const actorOrg = options.actor?.orgId;
  if (actorOrg !== undefined && actorOrg !== null && actorOrg !== derived) {
    throw coreError(
      'X_JOB_TENANT_MISMATCH',
      `${name}: the actor's org differs from the tenant the input names; an actor may only enqueue for its own org.`,
      { job: name, source: 'actor' },
    );
  }
  checkAmbientTenant(name, derived);
  return derived;
}
