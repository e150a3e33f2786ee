import {
  isLiveState,
  JOB_STATES,
  type JobIntrospection,
  type JobRecord,
  type StepRecord,
} from '@x/jobs-core';
import { type JobEvent, type JobSighting, jobEvents } from './job-events.js';

/** What a {@link JobTail} follows. */
export interface JobTailOptions {
  readonly queue?: string;
  readonly name?: string;
  readonly tenantId?: string;
  /** Rows read per state per poll, newest enqueued first, 1–1000. (Default: 200) */
  readonly limit?: number;
  /** Rows whose steps are read per poll (running rows and rows that changed). (Default: 50) */
  readonly stepReads?: number;
}

/**
 * Follows job events by polling the introspection API: every driver has it, so `tail` works on
 * Postgres, PGlite, Redis and memory alike. (A driver's wake only announces enqueues, not
 * settles or steps, so it cannot drive a tail by itself.) Each poll lists every state's newest
 * rows, reads the steps of running and changed rows, re-reads rows it saw live that left the
 * lists, and answers what changed since the last poll through {@link jobEvents}. The first poll
 * only takes stock and answers nothing; rows that finished before the tail started never
 * produce events.
 */
export class JobTail {
  readonly #introspect: JobIntrospection;
  readonly #options: JobTailOptions;
  readonly #seen = new Map<string, JobSighting>();
  #startedAt: number | null = null;

  constructor(introspect: JobIntrospection, options: JobTailOptions = {}) {
    this.#introspect = introspect;
    this.#options = options;
  }

  /** One look: the events since the previous poll, in the order they were found. */
  async poll(now: number): Promise<JobEvent[]> {
    const priming = this.#startedAt === null;
    if (priming) this.#startedAt = now;
    const rows = await this.#listed();
    for (const [id, seen] of this.#seen) {
      if (rows.has(id) || !isLiveState(seen.state)) continue;
      const row = await this.#introspect.get(id);
      if (row === null) this.#seen.delete(id);
      else rows.set(id, row);
    }
    let stepReads = this.#options.stepReads ?? 50;
    const events: JobEvent[] = [];
    for (const row of rows.values()) {
      const before = this.#seen.get(row.id) ?? null;
      if (
        before === null &&
        !priming &&
        !isLiveState(row.state) &&
        (row.finishedAt ?? 0) < (this.#startedAt ?? 0)
      ) {
        continue;
      }
      const changed = before === null || before.state !== row.state || before.attempts !== row.attempts;
      let steps: readonly StepRecord[] | null = null;
      if ((row.state === 'running' || (!priming && changed)) && stepReads > 0) {
        stepReads -= 1;
        steps = (await this.#introspect.get(row.id))?.steps ?? null;
      }
      const after = sighting(row, steps ?? null, before);
      if (!priming) events.push(...jobEvents(before, after, now));
      this.#seen.set(row.id, after);
    }
    for (const [id, seen] of this.#seen) if (!rows.has(id) && !isLiveState(seen.state)) this.#seen.delete(id);
    return events;
  }

  async #listed(): Promise<Map<string, JobRecord>> {
    const { queue, name, tenantId } = this.#options;
    const pages = await Promise.all(
      JOB_STATES.map((state) =>
        this.#introspect.list({
          state,
          limit: this.#options.limit ?? 200,
          ...(queue === undefined ? {} : { queue }),
          ...(name === undefined ? {} : { name }),
          ...(tenantId === undefined ? {} : { tenantId }),
        }),
      ),
    );
    const rows = new Map<string, JobRecord>();
    for (const page of pages) for (const row of page.jobs) rows.set(row.id, row);
    return rows;
  }
}

function sighting(
  row: JobRecord,
  steps: readonly StepRecord[] | null,
  before: JobSighting | null,
): JobSighting {
  return {
    id: row.id,
    name: row.name,
    queue: row.queue,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    lastError: row.lastError,
    steps:
      steps === null
        ? (before?.steps ?? null)
        : new Map(
            steps.map((step) => [
              step.name,
              {
                status: step.status,
                durationMs: step.completedAt === null ? null : Math.max(0, step.completedAt - step.startedAt),
              },
            ]),
          ),
  };
}
