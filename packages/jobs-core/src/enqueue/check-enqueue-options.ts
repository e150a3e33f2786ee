import { coreError } from '../errors/core-error.js';
import type { PrepareEnqueueOptions } from '../job/enqueue-options.js';
import type { JobActor } from '../job/job-actor.js';
import { checkPriority } from '../job/priority.js';
import { durationField } from '../values/duration-field.js';
import { checkIdentityString } from '../values/identity-string.js';
import { checkKnownKeys } from '../values/known-keys.js';
import { VALUE_LIMITS } from '../values/value-limits.js';

/** The keys {@link PrepareEnqueueOptions} accepts; any other is refused. */
export const ENQUEUE_OPTION_KEYS: ReadonlySet<string> = new Set([
  'runAt',
  'delay',
  'priority',
  'tenantId',
  'runId',
  'onConflict',
  'actor',
]);

/** Enqueue options after {@link checkEnqueueOptions}: `runAt` resolved to epoch ms. */
export interface CheckedEnqueueOptions {
  readonly runAt: number | undefined;
  readonly priority: number | undefined;
  readonly runId: string | undefined;
  readonly onConflict: 'dedupe' | 'error';
  readonly actor: JobActor | undefined;
}

/**
 * Parses enqueue options strictly; every refusal is `X_JOB_ENQUEUE_OPTIONS_INVALID` naming the
 * field: an unknown key (with the known keys in `meta.known`), `runAt` with `delay`, a `runAt`
 * outside [0, 9999-12-31], a `delay` outside [1 ms, 100 years], a bad `priority`, `onConflict`,
 * `runId`, `tenantId` or `actor`, and strings that break the storable-string rule.
 */
export function checkEnqueueOptions(
  options: PrepareEnqueueOptions,
  now: () => number,
): CheckedEnqueueOptions {
  if (options === null || typeof options !== 'object') throw optionInvalid('options', 'expected an object');
  checkKnownKeys(options, ENQUEUE_OPTION_KEYS, '', 'X_JOB_ENQUEUE_OPTIONS_INVALID');
  const { runAt, delay, priority, runId, onConflict = 'dedupe', actor, tenantId } = options;
  if (runAt !== undefined && delay !== undefined)
    throw optionInvalid('runAt', 'give runAt or delay, not both');
  if (onConflict !== 'dedupe' && onConflict !== 'error') {
    throw optionInvalid('onConflict', `must be 'dedupe' or 'error', got ${String(onConflict)}`);
  }
  if (runId !== undefined) {
    if (typeof runId !== 'string' || runId === '') throw optionInvalid('runId', 'must be a non-empty string');
    checkIdentityString(runId, 'runId', VALUE_LIMITS.runIdBytes, 'X_JOB_ENQUEUE_OPTIONS_INVALID');
  }
  if (tenantId !== undefined && tenantId !== null) {
    if (typeof tenantId !== 'string' || tenantId === '')
      throw optionInvalid('tenantId', 'must be a non-empty string or null');
    checkIdentityString(tenantId, 'tenantId', VALUE_LIMITS.tenantBytes, 'X_JOB_ENQUEUE_OPTIONS_INVALID');
  }
  if (actor !== undefined) checkActor(actor);
  return {
    runAt: runAt === undefined ? delayedRunAt(delay, now) : epochMs(runAt),
    priority:
      priority === undefined
        ? undefined
        : checkPriority(priority, 'priority', 'X_JOB_ENQUEUE_OPTIONS_INVALID'),
    runId,
    onConflict,
    actor,
  };
}

function checkActor(actor: JobActor): void {
  if (
    actor === null ||
    typeof actor !== 'object' ||
    typeof actor.id !== 'string' ||
    actor.id === '' ||
    (actor.orgId !== null && typeof actor.orgId !== 'string')
  ) {
    throw optionInvalid('actor', 'must be { id: string, orgId: string | null }');
  }
  checkIdentityString(actor.id, 'actor.id', VALUE_LIMITS.tenantBytes, 'X_JOB_ENQUEUE_OPTIONS_INVALID');
  if (actor.orgId !== null)
    checkIdentityString(
      actor.orgId,
      'actor.orgId',
      VALUE_LIMITS.tenantBytes,
      'X_JOB_ENQUEUE_OPTIONS_INVALID',
    );
}

function epochMs(runAt: Date | number): number {
  const ms = runAt instanceof Date ? runAt.getTime() : runAt;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw optionInvalid('runAt', 'must be a valid Date or epoch ms');
  const rounded = Math.round(ms);
  if (rounded < 0 || rounded > VALUE_LIMITS.maxRunAtMs) {
    throw optionInvalid('runAt', 'must lie between 1970-01-01 and 9999-12-31 (UTC)');
  }
  return rounded;
}

function delayedRunAt(delay: PrepareEnqueueOptions['delay'], now: () => number): number | undefined {
  if (delay === undefined || delay === 0) return undefined;
  const ms = durationField(delay, 'delay', 'X_JOB_ENQUEUE_OPTIONS_INVALID');
  return now() + ms;
}

function optionInvalid(field: string, problem: string) {
  return coreError('X_JOB_ENQUEUE_OPTIONS_INVALID', `enqueue option ${field}: ${problem}.`, { field });
}
