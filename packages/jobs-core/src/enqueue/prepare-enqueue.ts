import { randomUUID } from 'node:crypto';
import { maybeJobDriver } from '../ambient/driver-slot.js';
import type { EnqueueRequest } from '../driver/enqueue.js';
import { durationField } from '../duration-field.js';
import { coreError } from '../errors/core-error.js';
import { maxAttemptsOf } from '../job/attempt-budget.js';
import { definitionOf, type ResolvedJobDefinition } from '../job/definition-of.js';
import type { JobActor } from '../job/job-actor.js';
import type { JobHandle } from '../job/job-handle.js';
import { checkPriority } from '../job/priority.js';
import { toJsonForm } from '../json-form.js';
import type { PrepareEnqueueOptions } from './enqueue-options.js';
import { parseInput } from './parse-input.js';
import { activeTraceparent } from './traceparent.js';

/**
 * Resolves one enqueue into the request a facade or driver writes, without writing it: the
 * extension point for anything that enqueues on a job's behalf (the scheduler rewrites the
 * `idempotencyKey` to an occurrence-scoped one, then calls `jobsFacade().enqueue`).
 *
 * In order: checks the options (`X_JOB_ENQUEUE_OPTIONS_INVALID`); parses `input` with the schema
 * (`X_JOB_INPUT_INVALID`, listing issue paths and codes, never values); derives the idempotency
 * key and tenant (`X_JOB_KEY_INVALID` for a non-string or empty result); refuses an explicit
 * `tenantId` or an actor's non-null `orgId` that contradicts the derived tenant
 * (`X_JOB_TENANT_MISMATCH`; a `tenant: 'none'` job accepts only a null `tenantId` and ignores the
 * actor's org); resolves `runAt` (or now + `delay` on the installed driver's clock), `priority`,
 * `maxAttempts` ({@link maxAttemptsOf}) and `onConflict`;
 * mints `id` and `runId` (random UUIDs unless `runId` is given); stamps the active `traceparent`.
 * The payload is the JSON form of the parsed input.
 */
export function prepareEnqueue<EnqueueInput>(
  handle: JobHandle<unknown, unknown, EnqueueInput>,
  input: EnqueueInput,
  options: PrepareEnqueueOptions = {},
): EnqueueRequest {
  const definition = definitionOf(handle);
  const name = handle.name;
  const checked = checkOptions(options);
  const parsed = parseInput(name, definition.schema, input);
  const idempotencyKey = derive(name, 'idempotencyKey', () => definition.idempotencyKey(parsed));
  const tenantId = resolveTenant(name, definition, parsed, options);
  return {
    id: randomUUID(),
    runId: checked.runId ?? randomUUID(),
    name,
    queue: definition.queue,
    payload: payloadOf(name, parsed),
    tenantId,
    idempotencyKey,
    priority: checked.priority ?? definition.priority,
    ...(checked.runAt === undefined ? {} : { runAt: checked.runAt }),
    maxAttempts: maxAttemptsOf(definition),
    onConflict: checked.onConflict,
    enqueuedBy: checked.actor?.id ?? null,
    traceparent: activeTraceparent(),
  };
}

interface CheckedOptions {
  readonly runAt: number | undefined;
  readonly priority: number | undefined;
  readonly runId: string | undefined;
  readonly onConflict: 'dedupe' | 'error';
  readonly actor: JobActor | undefined;
}

function checkOptions(options: PrepareEnqueueOptions): CheckedOptions {
  if (options === null || typeof options !== 'object') throw optionInvalid('options', 'expected an object');
  const { runAt, delay, priority, runId, onConflict = 'dedupe', actor, tenantId } = options;
  if (runAt !== undefined && delay !== undefined)
    throw optionInvalid('runAt', 'give runAt or delay, not both');
  if (onConflict !== 'dedupe' && onConflict !== 'error') {
    throw optionInvalid('onConflict', `must be 'dedupe' or 'error', got ${String(onConflict)}`);
  }
  if (runId !== undefined && (typeof runId !== 'string' || runId === '')) {
    throw optionInvalid('runId', 'must be a non-empty string');
  }
  if (tenantId !== undefined && tenantId !== null && (typeof tenantId !== 'string' || tenantId === '')) {
    throw optionInvalid('tenantId', 'must be a non-empty string or null');
  }
  if (
    actor !== undefined &&
    (actor === null ||
      typeof actor !== 'object' ||
      typeof actor.id !== 'string' ||
      actor.id === '' ||
      (actor.orgId !== null && typeof actor.orgId !== 'string'))
  ) {
    throw optionInvalid('actor', 'must be { id: string, orgId: string | null }');
  }
  return {
    runAt: runAt === undefined ? delayedRunAt(delay) : epochMs(runAt),
    priority:
      priority === undefined
        ? undefined
        : checkPriority(priority, 'priority', 'X_JOB_ENQUEUE_OPTIONS_INVALID'),
    runId,
    onConflict,
    actor,
  };
}

function epochMs(runAt: Date | number): number {
  const ms = runAt instanceof Date ? runAt.getTime() : runAt;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw optionInvalid('runAt', 'must be a valid Date or epoch ms');
  return Math.round(ms);
}

function delayedRunAt(delay: PrepareEnqueueOptions['delay']): number | undefined {
  if (delay === undefined || delay === 0) return undefined;
  const ms = durationField(delay, 'delay', 'X_JOB_ENQUEUE_OPTIONS_INVALID');
  return (maybeJobDriver()?.now() ?? Date.now()) + ms;
}

function resolveTenant(
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
  const derived = derive(name, 'tenant', () => tenantOf(parsed));
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
  return derived;
}

/** Calls a definition's derivation and checks it returned a non-empty string. */
function derive(name: string, field: 'idempotencyKey' | 'tenant', fn: () => unknown): string {
  const value = fn();
  if (typeof value !== 'string' || value === '') {
    throw coreError(
      'X_JOB_KEY_INVALID',
      `${name}: ${field}(input) must return a non-empty string, got ${value === '' ? 'an empty string' : typeof value}.`,
      { job: name, field },
    );
  }
  return value;
}

function payloadOf(name: string, parsed: unknown) {
  try {
    return toJsonForm(parsed);
  } catch (error) {
    throw coreError(
      'X_JOB_INPUT_INVALID',
      `${name}: the parsed input has no JSON form (a bigint or a cycle); payloads must be JSON.`,
      { job: name, issues: [{ path: '(root)', code: 'unserializable' }] },
      error,
    );
  }
}

function optionInvalid(field: string, problem: string) {
  return coreError('X_JOB_ENQUEUE_OPTIONS_INVALID', `enqueue option ${field}: ${problem}.`, { field });
}
