import { coreError } from '../errors/core-error.js';
import { resolveRetryPolicy } from '../retry/retry-policy.js';
import { boundedInteger } from '../values/bounded-integer.js';
import { durationField } from '../values/duration-field.js';
import { checkIdentityString } from '../values/identity-string.js';
import { checkKnownKeys } from '../values/known-keys.js';
import { resolveRateLimit } from '../values/rate-limit-rule.js';
import { VALUE_LIMITS } from '../values/value-limits.js';
import type { ResolvedJobDefinition } from './definition-of.js';
import type { ResolvedJobConcurrency } from './job-handle.js';
import { checkPriority } from './priority.js';
import { checkRunSource } from './step-name.js';

/** The keys a job definition may have; any other (a typo) is refused. */
const DEFINITION_KEYS: ReadonlySet<string> = new Set([
  'name',
  'input',
  'idempotencyKey',
  'tenant',
  'retry',
  'queue',
  'priority',
  'concurrency',
  'rateLimit',
  'timeout',
  'stepTimeout',
  'eventPoll',
  'maxPayloadBytes',
  'compensates',
  'onSettled',
  'run',
]);

/** The keys of `concurrency`. */
const CONCURRENCY_KEYS: ReadonlySet<string> = new Set(['key', 'limit', 'whenBusy']);

/** Any function, for runtime checks of JavaScript callers. */
type AnyFunction = (...args: never[]) => unknown;

/**
 * Validates a definition as a JavaScript caller may pass it and applies the defaults. Every
 * refusal is a coded error naming the field: `X_IDEMPOTENCY_REQUIRED`, `X_JOB_TENANT_REQUIRED`,
 * or `X_JOB_DECLARATION_INVALID` (attempts, limit, durations, compensates, reserved step names…).
 */
export function resolveDefinition(definition: unknown): ResolvedJobDefinition {
  if (definition === null || typeof definition !== 'object') {
    throw invalid('definition', `job(): expected a definition object, got ${typeof definition}.`);
  }
  checkKnownKeys(definition, DEFINITION_KEYS, '', 'X_JOB_DECLARATION_INVALID');
  const d = definition as Record<string, unknown>;
  if (d.name !== undefined) {
    if (typeof d.name !== 'string' || d.name.trim() === '')
      throw invalid('name', 'name: must be a non-empty string (a durable queue key).');
    checkIdentityString(d.name, 'name', VALUE_LIMITS.nameBytes, 'X_JOB_DECLARATION_INVALID');
  }
  const schema = d.input as { safeParse?: unknown } | undefined;
  if (schema === null || typeof schema !== 'object' || typeof schema.safeParse !== 'function') {
    throw invalid('input', 'input: must be a zod schema, e.g. z.object({ orgId: z.string() }).');
  }
  if (d.idempotencyKey === undefined) {
    throw coreError(
      'X_IDEMPOTENCY_REQUIRED',
      'idempotencyKey: required. Queues deliver at least once: derive a dedupe key from the input (a function returning a string).',
      { field: 'idempotencyKey' },
    );
  }
  if (typeof d.idempotencyKey !== 'function') {
    throw invalid('idempotencyKey', 'idempotencyKey: must be a function of the input returning a string.');
  }
  if (d.tenant === undefined) {
    throw coreError(
      'X_JOB_TENANT_REQUIRED',
      "tenant: required. Derive the org the run acts as from the input, or write tenant: 'none'.",
      { field: 'tenant' },
    );
  }
  if (typeof d.tenant !== 'function' && d.tenant !== 'none') {
    throw invalid('tenant', "tenant: must be a function of the input or the string 'none'.");
  }
  if (typeof d.run !== 'function') throw invalid('run', 'run: must be a function (the job body).');
  if (d.onSettled !== undefined && typeof d.onSettled !== 'function') {
    throw invalid('onSettled', 'onSettled: must be a function.');
  }
  if (d.compensates !== undefined && typeof d.compensates !== 'boolean') {
    throw invalid('compensates', 'compensates: must be true or false.');
  }
  const queue = d.queue ?? 'default';
  if (typeof queue !== 'string' || queue.trim() === '')
    throw invalid('queue', 'queue: must be a non-empty string.');
  checkIdentityString(queue, 'queue', VALUE_LIMITS.queueBytes, 'X_JOB_DECLARATION_INVALID');
  const compensates = d.compensates === true;
  checkRunSource(d.run as AnyFunction, compensates);
  return {
    declaredName: d.name as string | undefined,
    schema: schema as ResolvedJobDefinition['schema'],
    idempotencyKey: d.idempotencyKey as ResolvedJobDefinition['idempotencyKey'],
    tenant: d.tenant as ResolvedJobDefinition['tenant'],
    retry: resolveRetryPolicy(d.retry as Parameters<typeof resolveRetryPolicy>[0]),
    queue,
    priority:
      d.priority === undefined ? 0 : checkPriority(d.priority, 'priority', 'X_JOB_DECLARATION_INVALID'),
    concurrency: resolveConcurrency(d.concurrency),
    rateLimit: resolveRateLimit(d.rateLimit),
    timeout: optionalDuration(d.timeout, 'timeout', VALUE_LIMITS.maxTimerMs),
    stepTimeout: optionalDuration(d.stepTimeout, 'stepTimeout', VALUE_LIMITS.maxTimerMs),
    eventPoll: optionalDuration(d.eventPoll, 'eventPoll', VALUE_LIMITS.maxDurationMs),
    maxPayloadBytes: resolveMaxPayloadBytes(d.maxPayloadBytes),
    compensates,
    onSettled: d.onSettled as ResolvedJobDefinition['onSettled'],
    run: d.run as ResolvedJobDefinition['run'],
  };
}

function resolveConcurrency(value: unknown): ResolvedJobConcurrency<unknown> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object') {
    throw invalid('concurrency', 'concurrency: expected { limit, key?, whenBusy? }.');
  }
  checkKnownKeys(value, CONCURRENCY_KEYS, 'concurrency', 'X_JOB_DECLARATION_INVALID');
  const { key, limit, whenBusy = 'wait' } = value as Record<string, unknown>;
  boundedInteger(
    limit,
    'concurrency.limit',
    1,
    VALUE_LIMITS.maxConcurrencyLimit,
    'X_JOB_DECLARATION_INVALID',
  );
  if (key !== undefined && typeof key !== 'function') {
    throw invalid('concurrency.key', 'concurrency.key: must be a function of the input returning a string.');
  }
  if (whenBusy !== 'wait' && whenBusy !== 'fail') {
    throw invalid(
      'concurrency.whenBusy',
      `concurrency.whenBusy: must be 'wait' or 'fail', got ${String(whenBusy)}.`,
    );
  }
  return Object.freeze({
    limit: limit as number,
    whenBusy,
    ...(key === undefined ? {} : { key: key as (input: unknown) => string }),
  });
}

/**
 * A declared duration up to `maxMs`. `timeout` and `stepTimeout` arm one Node timer each, so they
 * stop at 2³¹−1 ms (Node would fire a longer one after 1 ms); `eventPoll` is a durable suspension,
 * so it may be as long as any duration (100 years).
 */
function optionalDuration(value: unknown, field: string, maxMs: number): number | undefined {
  return value === undefined ? undefined : durationField(value, field, 'X_JOB_DECLARATION_INVALID', maxMs);
}

function resolveMaxPayloadBytes(value: unknown): number {
  if (value === undefined) return VALUE_LIMITS.defaultPayloadBytes;
  return boundedInteger(
    value,
    'maxPayloadBytes',
    1,
    VALUE_LIMITS.maxPayloadBytes,
    'X_JOB_DECLARATION_INVALID',
  );
}

function invalid(field: string, message: string) {
  return coreError('X_JOB_DECLARATION_INVALID', message, { field });
}
