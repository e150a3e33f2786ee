import type { z } from 'zod';
import { jobsFacade } from '../ambient/facade.js';
import { enqueuedJob } from '../caller/enqueued-job.js';
import { enqueueMany } from '../enqueue/enqueue-many.js';
import { prepareEnqueue } from '../enqueue/prepare-enqueue.js';
import { bindDefinition, type ResolvedJobDefinition } from '../job/definition-of.js';
import { markNamed, markUnnamed } from '../job/durable-name.js';
import type { JobDefinition } from '../job/job-definition.js';
import type { JobDescriptor } from '../job/job-descriptor.js';
import type { AnyJobHandle, JobHandle } from '../job/job-handle.js';
import { nextAnonymousName, REGISTRABLE, reserveDeclaredName } from '../job/registrable.js';
import { resolveDefinition } from '../job/resolve-definition.js';

/**
 * Declares a job and returns its handle. The definition is validated here, at declaration: a
 * missing `idempotencyKey` / `tenant` is `X_IDEMPOTENCY_REQUIRED` / `X_JOB_TENANT_REQUIRED` (the
 * type already requires both), any other invalid field `X_JOB_DECLARATION_INVALID` naming it, and
 * a `name:` another definition already set `X_JOB_DUPLICATE`. Without `name:` the handle is
 * `anonymous-job-<n>` until `defineJobs` stamps its export name, and its enqueues are refused
 * (`X_JOB_UNNAMED`) until then.
 *
 * ```ts
 * export const onboardOrg = job({
 *   input: z.object({ orgId: z.string().uuid() }),
 *   idempotencyKey: ({ orgId }) => `onboard:${orgId}`,
 *   tenant: ({ orgId }) => orgId,
 *   async run({ input, step }) { await step.run('provision', () => provision(input.orgId)); },
 * });
 * ```
 */
export function job<Schema extends z.ZodType, Result = void, Compensates extends boolean = false>(
  definition: JobDefinition<Schema, Result, Compensates>,
): JobHandle<z.output<Schema>, Result, z.input<Schema>> {
  const resolved = resolveDefinition(definition);
  if (resolved.declaredName !== undefined) reserveDeclaredName('job', resolved.declaredName);
  return createJobHandle(resolved) as JobHandle<z.output<Schema>, Result, z.input<Schema>>;
}

function createJobHandle(definition: ResolvedJobDefinition): AnyJobHandle {
  let name = definition.declaredName ?? nextAnonymousName('job');
  const handle: AnyJobHandle = Object.freeze({
    get name() {
      return name;
    },
    input: definition.schema,
    queue: definition.queue,
    priority: definition.priority,
    retry: definition.retry,
    concurrency: definition.concurrency,
    timeout: definition.timeout,
    stepTimeout: definition.stepTimeout,
    eventPoll: definition.eventPoll,
    compensates: definition.compensates,
    tenantMode: definition.tenant === 'none' ? 'none' : 'input',
    enqueue: async (input: unknown, options = {}) =>
      enqueuedJob(await jobsFacade().enqueue(prepareEnqueue(handle, input, options))),
    enqueueMany: async (inputs: readonly unknown[], options = {}) => enqueueMany(handle, inputs, options),
    as: async (actor, input: unknown, options = {}) =>
      enqueuedJob(await jobsFacade().enqueue(prepareEnqueue(handle, input, { ...options, actor }))),
    describe: () => describeJob(name, definition),
    [REGISTRABLE]: Object.freeze({
      kind: 'job' as const,
      declaredName: definition.declaredName,
      stampName: (exportName: string) => {
        if (definition.declaredName !== undefined) return;
        name = exportName;
        markNamed(handle);
      },
    }),
  } satisfies AnyJobHandle);
  bindDefinition(handle, definition);
  if (definition.declaredName === undefined) markUnnamed(handle);
  return handle;
}

function describeJob(name: string, definition: ResolvedJobDefinition): JobDescriptor {
  const { concurrency, rateLimit } = definition;
  return {
    kind: 'job',
    name,
    queue: definition.queue,
    priority: definition.priority,
    retry: definition.retry,
    concurrency:
      concurrency === undefined
        ? null
        : { limit: concurrency.limit, keyed: concurrency.key !== undefined, whenBusy: concurrency.whenBusy },
    rateLimit:
      rateLimit === undefined
        ? null
        : { limit: rateLimit.limit, perMs: rateLimit.perMs, keyed: rateLimit.key !== undefined },
    timeoutMs: definition.timeout ?? null,
    stepTimeoutMs: definition.stepTimeout ?? null,
    eventPollMs: definition.eventPoll ?? null,
    tenant: definition.tenant === 'none' ? 'none' : 'input',
    compensates: definition.compensates,
  };
}
