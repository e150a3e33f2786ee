import { coreError } from '../errors/core-error.js';

/**
 * The key under which a job or task handle exposes its registration hooks to `defineJobs`.
 * Extension packages (`@x/jobs-scheduler`'s `task()`) implement it; app code never touches it.
 */
export const REGISTRABLE: unique symbol = Symbol.for('@x/jobs-core.registrable') as never;

/** The hooks `defineJobs` uses to name and register a handle. */
export interface RegistrableHooks {
  /** Which list it belongs in: `defineJobs({ jobs })` or `defineJobs({ tasks })`. */
  readonly kind: 'job' | 'task';
  /** The `name:` the definition set, if any: it wins over the export name and is never restamped. */
  readonly declaredName: string | undefined;
  /** Sets the handle's name in place (the export name); called only when `declaredName` is undefined. */
  stampName(name: string): void;
}

/** A handle `defineJobs` can register: a job handle or a task handle. */
export interface Registrable {
  readonly [REGISTRABLE]: RegistrableHooks;
  /** The durable name: declared, stamped from the export, or positional `anonymous-<kind>-<n>`. */
  readonly name: string;
  /** The manifest row. */
  describe(): unknown;
}

/** True when `value` carries registration hooks. */
export function isRegistrable(value: unknown): value is Registrable {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    REGISTRABLE in (value as object)
  );
}

const declaredNames = new Map<string, 'job' | 'task'>();
const anonymousCounters = { job: 0, task: 0 };

/**
 * Reserves a `name:` given in a definition, at declaration. Two definitions setting one name are
 * `X_JOB_DUPLICATE` here, before either can take the other's rows.
 */
export function reserveDeclaredName(kind: 'job' | 'task', name: string): void {
  if (typeof name !== 'string' || name.trim() === '') {
    throw coreError('X_JOB_DECLARATION_INVALID', `${kind} name: must be a non-empty string.`, {
      field: 'name',
    });
  }
  const previous = declaredNames.get(name);
  if (previous !== undefined) {
    throw coreError(
      'X_JOB_DUPLICATE',
      `Two definitions set name: '${name}' (a ${previous} and a ${kind}). A name is a durable queue key; give each its own.`,
      { name },
    );
  }
  declaredNames.set(name, kind);
}

/** The positional name of an unregistered handle: `anonymous-job-1`, `anonymous-task-1`, … */
export function nextAnonymousName(kind: 'job' | 'task'): string {
  anonymousCounters[kind] += 1;
  return `anonymous-${kind}-${anonymousCounters[kind]}`;
}
