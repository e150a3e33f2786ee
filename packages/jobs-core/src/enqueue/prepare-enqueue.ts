import { maybeJobDriver } from '../ambient/driver-slot.js';
import type { EnqueueRequest } from '../driver/enqueue.js';
import { maxAttemptsOf } from '../job/attempt-budget.js';
import { definitionOf } from '../job/definition-of.js';
import { assertDurableName } from '../job/durable-name.js';
import type { PrepareEnqueueOptions } from '../job/enqueue-options.js';
import type { JobHandle } from '../job/job-handle.js';
import { flatUuid } from '../primitives/flat-uuid.js';
import { checkIdentityString } from '../values/identity-string.js';
import { VALUE_LIMITS } from '../values/value-limits.js';
import { checkEnqueueOptions } from './check-enqueue-options.js';
import { deriveIdentity } from './derive-identity.js';
import { parseInput } from './parse-input.js';
import { payloadOf } from './payload-of.js';
import { resolveTenant } from './resolve-tenant.js';
import { enqueueTraceparent } from './traceparent.js';

const driverNow = () => maybeJobDriver()?.now() ?? Date.now();

/**
 * Resolves one enqueue into the request a facade or driver writes, without writing it: the
 * extension point for anything that enqueues on a job's behalf (the scheduler rewrites the
 * `idempotencyKey` to an occurrence-scoped one, then calls `jobsFacade().enqueue`). Every value
 * rule of core (`values/`, the README's table) is applied here, so no driver sees a value another
 * driver would store differently.
 *
 * In order: refuses a handle with no durable name (`X_JOB_UNNAMED`: neither `name:` nor
 * registered with `defineJobs`); checks the options strictly (`X_JOB_ENQUEUE_OPTIONS_INVALID`, unknown keys included);
 * checks the job's name (`X_JOB_INPUT_INVALID`: a stamped export name is checked here, not at
 * `job()`); parses `input` with the schema (`X_JOB_INPUT_INVALID`, listing issue paths and codes,
 * never values); derives the idempotency key and tenant (`X_JOB_KEY_INVALID` for a non-string or
 * empty result, `X_JOB_INPUT_INVALID` for one that breaks the string rule or its byte limit);
 * refuses an explicit `tenantId`, an actor's non-null `orgId` or — inside a run, outside
 * `crossTenant` — the ambient run's tenant when it contradicts the derived tenant
 * (`X_JOB_TENANT_MISMATCH`); takes the payload as the JSON form of the parsed input, checked by the
 * value rules (`X_JOB_INPUT_INVALID` naming the path, `X_JOB_PAYLOAD_TOO_LARGE`); resolves `runAt`
 * (or now + `delay` on the installed driver's clock), `priority`, `maxAttempts`
 * ({@link maxAttemptsOf}) and `onConflict`; mints `id` and `runId` (random
 * UUIDs unless `runId` is given); stamps the `traceparent` of its PRODUCER span
 * (with a tracer provider registered) or of the active span ({@link enqueueTraceparent}).
 */
export function prepareEnqueue<EnqueueInput>(
  handle: JobHandle<unknown, unknown, EnqueueInput>,
  input: EnqueueInput,
  options: PrepareEnqueueOptions = {},
): EnqueueRequest {
  const definition = definitionOf(handle);
  assertDurableName(handle, handle.name);
  const name = checkIdentityString(handle.name, 'name', VALUE_LIMITS.nameBytes, 'X_JOB_INPUT_INVALID');
  const checked = checkEnqueueOptions(options, driverNow);
  const parsed = parseInput(name, definition.schema, input);
  const idempotencyKey = deriveIdentity(name, 'idempotencyKey', VALUE_LIMITS.idempotencyKeyBytes, () =>
    definition.idempotencyKey(parsed),
  );
  const tenantId = resolveTenant(name, definition, parsed, options);
  const id = flatUuid();
  const runId = checked.runId ?? flatUuid();
  return {
    id,
    runId,
    name,
    queue: definition.queue,
    payload: payloadOf(name, parsed, definition.maxPayloadBytes),
    tenantId,
    idempotencyKey,
    priority: checked.priority ?? definition.priority,
    ...(checked.runAt === undefined ? {} : { runAt: checked.runAt }),
    maxAttempts: maxAttemptsOf(definition),
    onConflict: checked.onConflict,
    enqueuedBy: checked.actor?.id ?? null,
    traceparent: enqueueTraceparent({ id, runId, name, queue: definition.queue }),
  };
}
