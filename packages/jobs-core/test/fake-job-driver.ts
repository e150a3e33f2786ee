import type { AttemptFailure } from '../src/driver/attempt-error.js';
import type {
  ClaimedJob,
  ClaimOptions,
  ClaimRef,
  JobErrorRecord,
  JobIntrospection,
  NackOptions,
  StepRecord,
  StopReason,
} from '../src/driver/index.js';
import type { JobDriver } from '../src/driver/job-driver.js';
import type { JsonValue } from '../src/values/json.js';

/** One row of the fake: just what the executor's rules read and write. */
export interface FakeRow {
  readonly id: string;
  readonly runId: string;
  readonly name: string;
  readonly queue: string;
  payload: JsonValue;
  /** The row's tenant (Default: null). */
  tenantId?: string | null;
  state: 'ready' | 'delayed' | 'running' | 'suspended' | 'done' | 'dead' | 'cancelled';
  /** The row's dedupe key (Default: its id). */
  idempotencyKey?: string;
  /** The event a suspended row waits for. */
  waitingFor?: string | null;
  /** Attempts started (counted by `start`, handed back by release/suspend of a started claim). */
  attempts: number;
  maxAttempts: number;
  runAt: number;
  token: string | null;
  started: boolean;
  leaseExpiresAt: number;
  result: JsonValue | undefined;
  lastError: JobErrorRecord | null;
  stopReason: StopReason | null;
  /** The `failure` of every retry / dead nack, in order (Default: none). */
  failures?: AttemptFailure[];
}

/** The driver methods a test may wrap: `next` is the fake's own implementation. */
type Wrappable = 'start' | 'ack' | 'nack' | 'heartbeat';

/**
 * A small in-process driver for the executor's unit tests: rows in a map, claims that count no
 * attempt, `start` that counts one, fencing on the token, and every call recorded in `calls`.
 * `wrap(method, fn)` injects faults (a slow ack, a throwing heartbeat). Time is `Date.now()`.
 */
export class FakeJobDriver {
  readonly rows = new Map<string, FakeRow>();
  readonly steps = new Map<string, StepRecord[]>();
  /** Every `events.publish`, in order. */
  readonly published: { readonly event: string; readonly payload: JsonValue; readonly at: number }[] = [];
  /** `method:jobId` per call, in order. */
  readonly calls: string[] = [];
  readonly #wrappers = new Map<
    Wrappable,
    (next: () => Promise<boolean>, jobId: string) => Promise<boolean>
  >();
  #seq = 0;

  /** Adds a ready row. */
  add(row: Partial<FakeRow> & { name: string }): FakeRow {
    const id = row.id ?? `job-${++this.#seq}`;
    const full: FakeRow = {
      id,
      runId: `run-${id}`,
      queue: 'q',
      payload: {},
      state: 'ready',
      attempts: 0,
      maxAttempts: 3,
      runAt: Date.now(),
      token: null,
      started: false,
      leaseExpiresAt: 0,
      result: undefined,
      lastError: null,
      stopReason: null,
      idempotencyKey: id,
      waitingFor: null,
      ...row,
    };
    this.rows.set(id, full);
    return full;
  }

  /** Wraps one method: `fn` decides when (and whether) the fake's own call runs. */
  wrap(method: Wrappable, fn: (next: () => Promise<boolean>, jobId: string) => Promise<boolean>): void {
    this.#wrappers.set(method, fn);
  }

  /** Claims due rows (ready, or running with a lapsed lease: `lapsed`) for `visibilityTimeoutMs`. */
  claimNow(limit = 10, visibilityTimeoutMs = 1_000, workerId = 'w'): ClaimedJob[] {
    const now = Date.now();
    const claimed: ClaimedJob[] = [];
    for (const row of this.rows.values()) {
      if (claimed.length >= limit) break;
      const due =
        ((row.state === 'ready' || row.state === 'delayed' || row.state === 'suspended') &&
          row.runAt <= now) ||
        (row.state === 'running' && row.leaseExpiresAt <= now);
      if (!due) continue;
      const lapsed = row.state === 'running';
      row.state = 'running';
      row.token = `t-${++this.#seq}`;
      row.started = false;
      row.leaseExpiresAt = now + visibilityTimeoutMs;
      claimed.push(this.#claimed(row, { workerId, token: row.token }, lapsed));
    }
    this.calls.push(...claimed.map((job) => `claim:${job.id}`));
    return claimed;
  }

  /** The {@link JobDriver} over these rows. */
  get driver(): JobDriver {
    const held = (jobId: string, claim: ClaimRef) => {
      const row = this.rows.get(jobId);
      return row !== undefined && row.state === 'running' && row.token === claim.token ? row : undefined;
    };
    const call = (method: Wrappable, jobId: string, body: () => boolean): Promise<boolean> => {
      this.calls.push(`${method}:${jobId}`);
      const next = async () => body();
      const wrapper = this.#wrappers.get(method);
      return wrapper === undefined ? next() : wrapper(next, jobId);
    };
    const endClaim = (row: FakeRow, state: FakeRow['state']) => {
      row.state = state;
      row.token = null;
    };
    const introspect = {
      get: async (id: string) => {
        const row = this.rows.get(id);
        return row === undefined ? null : { ...row, steps: this.steps.get(row.runId) ?? [] };
      },
      cancel: async (id: string) => {
        const row = this.rows.get(id);
        if (row === undefined || ['done', 'dead', 'cancelled'].includes(row.state)) return false;
        endClaim(row, 'cancelled');
        return true;
      },
      promote: async (id: string) => {
        const row = this.rows.get(id);
        if (row === undefined || (row.state !== 'delayed' && row.state !== 'suspended')) return false;
        row.runAt = Date.now();
        return true;
      },
      reportWorker: async () => undefined,
      removeWorker: async () => undefined,
      purge: async () => 0,
    } as unknown as JobIntrospection;
    return {
      name: 'fake',
      now: () => Date.now(),
      introspect,
      steps: {
        load: async (runId) => [...(this.steps.get(runId) ?? [])],
        save: async (fence, step) => {
          if (held(fence.jobId, fence.claim) === undefined) return false;
          const list = (this.steps.get(fence.runId) ?? []).filter((record) => record.name !== step.name);
          this.steps.set(fence.runId, [...list, step]);
          return true;
        },
      },
      events: {
        publish: async (event, payload, { ttlMs }) => {
          const at = Date.now();
          this.published.push({ event, payload, at });
          for (const row of this.rows.values()) {
            if (row.state === 'suspended' && row.waitingFor === event) row.runAt = at;
          }
          return { id: `e-${++this.#seq}`, event, payload, publishedAt: at, expiresAt: at + ttlMs };
        },
        find: async () => null,
        purgeExpired: async () => 0,
      },
      enqueue: async (request) => {
        this.calls.push(`enqueue:${request.id}`);
        const live = [...this.rows.values()].find(
          (row) =>
            row.name === request.name &&
            row.idempotencyKey === request.idempotencyKey &&
            !['done', 'dead', 'cancelled'].includes(row.state),
        );
        if (live !== undefined) return { id: live.id, runId: live.runId, deduped: true };
        const row = this.add({
          id: request.id,
          runId: request.runId,
          name: request.name,
          queue: request.queue,
          payload: request.payload,
          idempotencyKey: request.idempotencyKey,
          maxAttempts: request.maxAttempts,
        });
        return { id: row.id, runId: row.runId, deduped: false };
      },
      enqueueMany: async () => {
        throw new Error('fake: use add()');
      },
      claim: async (options: ClaimOptions) =>
        this.claimNow(options.limit, options.visibilityTimeoutMs, options.workerId),
      start: (jobId, claim, visibilityTimeoutMs) =>
        call('start', jobId, () => {
          const row = held(jobId, claim);
          if (row === undefined || row.started) return false;
          row.started = true;
          row.attempts += 1;
          row.leaseExpiresAt = Date.now() + visibilityTimeoutMs;
          return true;
        }),
      ack: (jobId, claim, result) =>
        call('ack', jobId, () => {
          const row = held(jobId, claim);
          if (row === undefined) return false;
          row.result = result;
          endClaim(row, 'done');
          return true;
        }),
      nack: (jobId, claim, options: NackOptions) =>
        call('nack', jobId, () => {
          const row = held(jobId, claim);
          if (row === undefined) return false;
          this.calls.push(`nack-${options.kind}:${jobId}`);
          if ((options.kind === 'retry' || options.kind === 'dead') && options.failure !== undefined) {
            row.failures = [...(row.failures ?? []), options.failure];
          }
          if ((options.kind === 'release' || options.kind === 'suspend') && row.started) row.attempts -= 1;
          if (options.kind === 'dead') {
            row.lastError = options.error;
            row.stopReason = options.stopReason;
            endClaim(row, 'dead');
          } else {
            if (options.kind === 'retry') row.lastError = options.error;
            row.runAt = options.kind === 'release' ? (options.runAt ?? Date.now()) : options.runAt;
            row.waitingFor = options.kind === 'suspend' ? (options.waitFor ?? null) : null;
            endClaim(row, options.kind === 'suspend' ? 'suspended' : 'delayed');
          }
          return true;
        }),
      heartbeat: (jobId, claim, visibilityTimeoutMs) =>
        call('heartbeat', jobId, () => {
          const row = held(jobId, claim);
          if (row === undefined) return false;
          row.leaseExpiresAt = Date.now() + visibilityTimeoutMs;
          return true;
        }),
      progress: async () => true,
      stats: async () => [],
      close: async () => undefined,
    };
  }

  #claimed(row: FakeRow, claim: ClaimRef, lapsed: boolean): ClaimedJob {
    return {
      id: row.id,
      runId: row.runId,
      name: row.name,
      queue: row.queue,
      payload: row.payload,
      tenantId: row.tenantId ?? null,
      idempotencyKey: row.idempotencyKey ?? row.id,
      priority: 0,
      attempt: row.attempts + 1,
      maxAttempts: row.maxAttempts,
      enqueuedAt: 0,
      runAt: row.runAt,
      leaseExpiresAt: row.leaseExpiresAt,
      enqueuedBy: null,
      traceparent: null,
      claim,
      lapsed,
    };
  }
}
