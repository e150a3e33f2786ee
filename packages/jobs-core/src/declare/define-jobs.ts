import { coreError } from '../errors/core-error.js';
import { isRegistrable, REGISTRABLE, type Registrable } from '../job/registrable.js';
import type { JobRegistry } from '../registry/job-registry.js';
import { RegistryTable } from '../registry/job-registry.js';
import { processTable } from '../registry/process-registry.js';

/** What `defineJobs` takes: module namespaces (`import * as billing from './billing-jobs.js'`). */
export interface DefineJobsInput {
  /** Modules whose exported job handles are registered under their export names. */
  readonly jobs?: readonly object[];
  /** Modules whose exported task handles (`@x/jobs-scheduler`'s `task()`) are registered. */
  readonly tasks?: readonly object[];
}

/**
 * Names and registers every job and task the given modules export. Each handle without a
 * declared `name:` is stamped, in place, with its export name (so the imported object is the one
 * that routes); a declared `name:` wins. Exports that are not handles are ignored. Everything is
 * checked before anything is stamped: one handle under two export names, or two handles under one
 * name (here or in an earlier call), is `X_JOB_DUPLICATE`; the same handle under the same name
 * again is one registration. A task in `jobs` (or a job in `tasks`), a handle passed instead of
 * its module, or a handle exported as `default` is `X_JOB_REGISTRATION_INVALID`.
 *
 * Answers a registry of this call's handles; they also join the process-wide {@link jobRegistry}.
 */
export function defineJobs(input: DefineJobsInput): JobRegistry {
  const planned = new Map<string, Registrable>();
  const plannedName = new Map<Registrable, string>();
  for (const kind of ['job', 'task'] as const) {
    for (const namespace of listOf(input, kind)) {
      for (const [exportName, value] of Object.entries(namespace)) {
        if (!isRegistrable(value)) continue;
        const name = nameFor(kind, exportName, value);
        const earlier = plannedName.get(value) ?? processTable.nameOf(value);
        if (earlier !== undefined && earlier !== name) {
          throw coreError(
            'X_JOB_DUPLICATE',
            `One ${kind} is exported as both '${earlier}' and '${name}'; the second alias would move its queue key. Export it once, or give it name:.`,
            { name, previous: earlier },
          );
        }
        const holder = planned.get(name) ?? processTable.get(name);
        if (holder !== undefined && holder !== value) {
          throw coreError(
            'X_JOB_DUPLICATE',
            `Two different handles are registered as '${name}'. A name is a durable queue key; rename one export or set name:.`,
            { name },
          );
        }
        planned.set(name, value);
        plannedName.set(value, name);
      }
    }
  }
  const table = new RegistryTable();
  for (const [name, handle] of planned) {
    const hooks = handle[REGISTRABLE];
    if (hooks.declaredName === undefined) hooks.stampName(name);
    processTable.add(name, handle);
    table.add(name, handle);
  }
  return table;
}

function listOf(input: DefineJobsInput, kind: 'job' | 'task'): readonly object[] {
  const list = kind === 'job' ? input?.jobs : input?.tasks;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw registrationInvalid(`${kind}s: expected an array of module namespaces.`);
  for (const namespace of list) {
    if (namespace === null || typeof namespace !== 'object') {
      throw registrationInvalid(
        `${kind}s: expected module namespaces (import * as mod), got ${typeof namespace}.`,
      );
    }
    if (isRegistrable(namespace)) {
      throw registrationInvalid(
        `${kind}s: got a handle ('${namespace.name}'), not its module; pass the namespace (import * as mod) so the export name can be stamped.`,
      );
    }
  }
  return list;
}

function nameFor(kind: 'job' | 'task', exportName: string, value: Registrable): string {
  const hooks = value[REGISTRABLE];
  if (hooks.kind !== kind) {
    throw registrationInvalid(`'${exportName}' is a ${hooks.kind}; list its module under ${hooks.kind}s:.`);
  }
  if (hooks.declaredName !== undefined) return hooks.declaredName;
  if (exportName === 'default') {
    throw registrationInvalid(
      `A ${kind} is exported as default; export it by name (the name is its queue key).`,
    );
  }
  return exportName;
}

function registrationInvalid(message: string) {
  return coreError('X_JOB_REGISTRATION_INVALID', `defineJobs: ${message}`);
}
