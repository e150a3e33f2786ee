import type { EnqueueOptions } from '@x/jobs-core';
import type { EnqueueResult, Registrable, RegistrableHooks } from '@x/jobs-core/driver';
import { nextAnonymousName, REGISTRABLE, reserveDeclaredName } from '@x/jobs-core/driver';
import { CATCH_UP_POLICIES, type CatchUpPolicy } from './catch-up.js';
import { compileCron } from './cron-schedule.js';
import { schedulerError } from './errors.js';
import { readTaskEntries, type TaskEntries, type TaskEntry } from './task-entry.js';
import { recordTaskSpec } from './task-spec.js';
import { resolveTimeZone } from './time-zone.js';

/** A cron task: when to fire, in which zone, what it missed, and the jobs it enqueues. */
export interface TaskDefinition<Inputs extends readonly unknown[] = readonly unknown[]> {
  /** A durable name that survives a renamed export. (Default: the export name `defineJobs` stamps, else `anonymous-task-<n>`) */
  readonly name?: string;
  /** Five fields (`'0 3 * * *'`) or six with seconds first; croner's nicknames (`'@daily'`) too. */
  readonly cron: string;
  /** The IANA zone the cron is read in (`'Europe/Berlin'`, `'UTC'`). Required: a cron without a zone is a bug. */
  readonly tz: string;
  /** What the task fires for occurrences it missed. (Default: 'skip') */
  readonly catchUp?: CatchUpPolicy;
  /** How many missed occurrences one round walks, for every policy. A positive integer. (Default: 10) */
  readonly maxCatchUp?: number;
  /** The `[job, input]` pairs each occurrence enqueues, in order. Called at each fire, never at declaration. */
  readonly enqueue: () => TaskEntries<Inputs>;
}

/** The manifest row of a task. */
export interface TaskDescriptor {
  readonly kind: 'task';
  readonly name: string;
  readonly cron: string;
  /** The canonical zone (`'europe/berlin'` is stored as `'Europe/Berlin'`). */
  readonly tz: string;
  readonly catchUp: CatchUpPolicy;
  readonly maxCatchUp: number;
  /** The names of the jobs it enqueues, in declaration order. */
  readonly jobs: readonly string[];
}

/** The handle `task()` answers: register it with `defineJobs({ tasks })` or pass it to `createScheduler`. */
export interface TaskHandle extends Registrable {
  /** The durable name: declared, stamped from the export name, or `anonymous-task-<n>`. */
  readonly name: string;
  /** The declared `[job, input]` pairs (the `enqueue` thunk's answer, checked). */
  entries(): readonly TaskEntry[];
  /**
   * Fires every entry now through each job's own `enqueue` (so through the ambient facade), one
   * result per entry, in order. Each job keeps its own idempotency key: a manual fire and a
   * scheduled occurrence are distinct rows.
   */
  enqueue(options?: TaskEnqueueOptions): Promise<readonly EnqueueResult[]>;
  /** The manifest row. */
  describe(): TaskDescriptor;
}

/** Options a manual fire passes to every entry's `job.enqueue`; one `runId` cannot serve several rows. */
export type TaskEnqueueOptions = Omit<EnqueueOptions, 'runId'>;

const DEFAULT_MAX_CATCH_UP = 10;

/**
 * Declares a cron task. Everything is checked here, at declaration: the zone against the runtime's
 * IANA database (`X_TASK_TZ_INVALID`), the pattern with croner (`X_TASK_CRON_INVALID`), the other
 * fields (`X_TASK_DECLARATION_INVALID`), and a `name:` another definition already set
 * (`X_JOB_DUPLICATE`).
 */
export function task<const Inputs extends readonly unknown[]>(
  definition: TaskDefinition<Inputs>,
): TaskHandle {
  if (typeof definition !== 'object' || definition === null) {
    throw schedulerError('X_TASK_DECLARATION_INVALID', 'task(): expected a definition object.', {});
  }
  const tz = resolveTimeZone(definition.tz);
  const schedule = compileCron(definition.cron, tz);
  const catchUp = readCatchUp(definition.catchUp);
  const maxCatchUp = readMaxCatchUp(definition.maxCatchUp);
  const thunk = definition.enqueue;
  if (typeof thunk !== 'function') {
    throw schedulerError(
      'X_TASK_DECLARATION_INVALID',
      'enqueue: required, a function answering [[job, input], …].',
      { field: 'enqueue' },
    );
  }
  const declaredName = readDeclaredName(definition.name);
  if (declaredName !== undefined) reserveDeclaredName('task', declaredName);
  let name = declaredName ?? nextAnonymousName('task');

  const entries = (): readonly TaskEntry[] => readTaskEntries(name, thunk);
  const hooks: RegistrableHooks = {
    kind: 'task',
    declaredName,
    stampName(stamped) {
      name = stamped;
    },
  };
  const handle: TaskHandle = {
    [REGISTRABLE]: hooks,
    get name() {
      return name;
    },
    entries,
    async enqueue(options) {
      const results: EnqueueResult[] = [];
      for (const [job, input] of entries()) results.push(await job.enqueue(input, options));
      return results;
    },
    describe() {
      return {
        kind: 'task',
        name,
        cron: schedule.cron,
        tz,
        catchUp,
        maxCatchUp,
        jobs: entries().map(([job]) => job.name),
      };
    },
  };
  recordTaskSpec(handle, { schedule, catchUp, maxCatchUp, entries });
  return handle;
}

function readDeclaredName(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== 'string' || name.trim() === '') {
    throw schedulerError('X_TASK_DECLARATION_INVALID', 'name: when given, a non-empty string.', {
      field: 'name',
    });
  }
  return name;
}

function readCatchUp(catchUp: unknown): CatchUpPolicy {
  if (catchUp === undefined) return 'skip';
  if (!CATCH_UP_POLICIES.includes(catchUp as CatchUpPolicy)) {
    throw schedulerError(
      'X_TASK_DECLARATION_INVALID',
      `catchUp: one of ${CATCH_UP_POLICIES.map((p) => `'${p}'`).join(', ')} (got ${String(catchUp)}).`,
      { field: 'catchUp' },
    );
  }
  return catchUp as CatchUpPolicy;
}

function readMaxCatchUp(maxCatchUp: unknown): number {
  if (maxCatchUp === undefined) return DEFAULT_MAX_CATCH_UP;
  if (typeof maxCatchUp !== 'number' || !Number.isSafeInteger(maxCatchUp) || maxCatchUp < 1) {
    throw schedulerError(
      'X_TASK_DECLARATION_INVALID',
      `maxCatchUp: a positive integer (got ${String(maxCatchUp)}).`,
      { field: 'maxCatchUp' },
    );
  }
  return maxCatchUp;
}
