import type { JobDriver } from '@x/jobs-core';
import type { ClaimRef, EnqueueRequest, LeaseGrant } from '@x/jobs-core/driver';
import type { Due, ModelOperation, Window } from './model-operation.js';

/** A window no generated sequence lets pass. */
export const LONG_WINDOW_MS = 3_600_000;
/** A window that lapses at once: the runner lets {@link LAPSE_WAIT_MS} pass right after the call. */
export const LAPSE_WINDOW_MS = 1;
/** How long the runner lets pass after a call with a lapsing window (and on an `advance`). */
export const LAPSE_WAIT_MS = 25;

/** The names one sequence uses, shared by both sides and by no other sequence. */
export interface SequenceNames {
  readonly queues: readonly [string, string];
  readonly events: readonly [string, string];
  readonly leaseKeys: readonly [string, string];
  /** The id of the row the `n`-th enqueued request writes (the same on both sides). */
  rowId(n: number): string;
  /** The `k`-th idempotency key, scoped to the sequence (other sequences' live rows share the database). */
  key(k: number): string;
}

interface HeldClaim {
  readonly jobId: string;
  readonly runId: string;
  readonly claim: ClaimRef;
}

/** What a call answered, in terms comparable across drivers. */
export type Answer = unknown;

function windowMs(window: Window): number {
  return window === 'long' ? LONG_WINDOW_MS : LAPSE_WINDOW_MS;
}

/**
 * One driver under a generated sequence: it turns each operation into a driver call and answers
 * what the call answered, with every driver-made value (tokens, times) replaced by the order it
 * first appeared in, so the two sides' answers compare with `toEqual`.
 */
export class ModelSide {
  readonly driver: JobDriver;
  readonly #names: SequenceNames;
  readonly #claims: HeldClaim[] = [];
  readonly #grants: LeaseGrant[] = [];
  readonly #grantIndex = new Map<string, number>();
  /** Row ids in the order the sequence first wrote them. */
  readonly rows: string[] = [];
  /** Every runId a row of this sequence had. */
  readonly runIds = new Set<string>();
  #requests = 0;

  constructor(driver: JobDriver, names: SequenceNames) {
    this.driver = driver;
    this.#names = names;
  }

  /** Runs `operation`; a thrown error answers `{ error: code }`. */
  async apply(operation: ModelOperation): Promise<Answer> {
    try {
      return await this.#apply(operation);
    } catch (error) {
      const code =
        error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : 'uncoded';
      return { error: code };
    }
  }

  #runAt(due: Due): number {
    const now = this.driver.now();
    return due === 'now' ? now : due === 'past' ? now - LONG_WINDOW_MS : now + LONG_WINDOW_MS;
  }

  #request(queue: number, key: number, tenant: number, priority: number, due: Due): EnqueueRequest {
    const n = this.#requests++;
    const id = this.#names.rowId(n);
    return {
      id,
      runId: `${id}-run`,
      name: 'model-job',
      queue: this.#names.queues[queue % 2]!,
      payload: { n },
      tenantId: tenant === 0 ? null : 'tenant-1',
      idempotencyKey: this.#names.key(key),
      priority,
      maxAttempts: 3,
      ...(due === 'now' ? {} : { runAt: this.#runAt(due) }),
    };
  }

  #remember(id: string): void {
    if (!this.rows.includes(id)) this.rows.push(id);
  }

  #claim(index: number): HeldClaim | undefined {
    return this.#claims.length === 0 ? undefined : this.#claims[index % this.#claims.length];
  }

  #row(index: number): string | undefined {
    return this.rows.length === 0 ? undefined : this.rows[index % this.rows.length];
  }

  #grant(grant: LeaseGrant | null): Answer {
    if (grant === null) return null;
    let index = this.#grantIndex.get(grant.token);
    if (index === undefined) {
      index = this.#grants.length;
      this.#grantIndex.set(grant.token, index);
    }
    this.#grants[index] = grant;
    return { grant: index, key: grant.key, holder: grant.holder };
  }

  async #apply(o: ModelOperation): Promise<Answer> {
    const d = this.driver;
    switch (o.op) {
      case 'enqueue': {
        const request = {
          ...this.#request(o.queue, o.key, o.tenant, o.priority, o.due),
          onConflict: o.onConflict,
        };
        const result = await d.enqueue(request);
        this.#remember(result.id);
        this.runIds.add(result.runId);
        return result;
      }
      case 'enqueueMany': {
        const results = await d.enqueueMany(
          o.rows.map((row) => this.#request(row.queue, row.key, 0, 0, row.due)),
        );
        for (const result of results) {
          this.#remember(result.id);
          this.runIds.add(result.runId);
        }
        return results;
      }
      case 'claim': {
        const claimed = await d.claim({
          queues: o.queues.map((q) => this.#names.queues[q]!),
          limit: o.limit,
          workerId: `model-worker-${o.worker}`,
          visibilityTimeoutMs: windowMs(o.window),
          ...(o.start === 0 ? {} : { start: o.start }),
        });
        const sorted = [...claimed].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        for (const job of sorted) {
          this.#claims.push({ jobId: job.id, runId: job.runId, claim: job.claim });
          this.runIds.add(job.runId);
        }
        return sorted.map((job) => ({
          id: job.id,
          attempt: job.attempt,
          started: job.started === true,
          queue: job.queue,
          payload: job.payload,
        }));
      }
      case 'start': {
        const held = this.#claim(o.claim);
        return held === undefined ? 'no claim' : d.start(held.jobId, held.claim, windowMs(o.window));
      }
      case 'heartbeat': {
        const held = this.#claim(o.claim);
        return held === undefined ? 'no claim' : d.heartbeat(held.jobId, held.claim, windowMs(o.window));
      }
      case 'ack': {
        const held = this.#claim(o.claim);
        return held === undefined ? 'no claim' : d.ack(held.jobId, held.claim, { result: o.result });
      }
      case 'retry': {
        const held = this.#claim(o.claim);
        if (held === undefined) return 'no claim';
        return d.nack(held.jobId, held.claim, {
          kind: 'retry',
          runAt: this.#runAt(o.due),
          error: { code: 'X_MODEL_RETRY', message: 'generated' },
        });
      }
      case 'release': {
        const held = this.#claim(o.claim);
        if (held === undefined) return 'no claim';
        return d.nack(
          held.jobId,
          held.claim,
          o.due === 'now' ? { kind: 'release' } : { kind: 'release', runAt: this.#runAt(o.due) },
        );
      }
      case 'suspend': {
        const held = this.#claim(o.claim);
        if (held === undefined) return 'no claim';
        const runAt = this.#runAt(o.due);
        return d.nack(
          held.jobId,
          held.claim,
          o.event === null
            ? { kind: 'suspend', runAt }
            : { kind: 'suspend', runAt, waitFor: this.#names.events[o.event]! },
        );
      }
      case 'dead': {
        const held = this.#claim(o.claim);
        if (held === undefined) return 'no claim';
        return d.nack(held.jobId, held.claim, {
          kind: 'dead',
          error: { code: 'X_MODEL_DEAD', message: 'generated' },
          stopReason: 'terminal',
        });
      }
      case 'progress': {
        const held = this.#claim(o.claim);
        return held === undefined
          ? 'no claim'
          : d.progress(held.jobId, held.claim, { current: o.current, total: 9 });
      }
      case 'saveStep': {
        const held = this.#claim(o.claim);
        if (held === undefined) return 'no claim';
        return d.steps.save(
          { jobId: held.jobId, runId: held.runId, claim: held.claim },
          {
            name: `step-${o.step}`,
            position: o.step,
            status: 'completed',
            output: { step: o.step },
            error: null,
            startedAt: 1,
            completedAt: 2,
          },
        );
      }
      case 'cancel':
      case 'promote':
      case 'operatorRetry': {
        const id = this.#row(o.row);
        if (id === undefined) return 'no row';
        const introspect = d.introspect!;
        if (o.op === 'cancel') return introspect.cancel(id, 'model');
        if (o.op === 'promote') return introspect.promote(id);
        return introspect.retry(id);
      }
      case 'pause':
        return d.introspect!.pause(this.#names.queues[o.queue]!);
      case 'resume':
        return d.introspect!.resume(this.#names.queues[o.queue]!);
      case 'publish': {
        const record = await d.events.publish(
          this.#names.events[o.event]!,
          { value: o.value },
          { ttlMs: LONG_WINDOW_MS },
        );
        return { event: record.event, payload: record.payload };
      }
      case 'findEvent': {
        const found = await d.events.find(this.#names.events[o.event]!, {
          since: 0,
          ...(o.value === null ? {} : { match: { value: o.value } }),
        });
        return found === null ? null : { event: found.event, payload: found.payload };
      }
      case 'acquire':
        return this.#grant(
          await d.leases!.acquire(this.#names.leaseKeys[o.key]!, `holder-${o.holder}`, {
            limit: o.limit,
            ttlMs: windowMs(o.window),
          }),
        );
      case 'renew': {
        const grant = this.#grants.length === 0 ? undefined : this.#grants[o.grant % this.#grants.length];
        if (grant === undefined) return 'no grant';
        const renewed = await d.leases!.renew(grant, windowMs(o.window));
        return renewed === null ? null : this.#grant(renewed);
      }
      case 'release-lease': {
        const grant = this.#grants.length === 0 ? undefined : this.#grants[o.grant % this.#grants.length];
        return grant === undefined ? 'no grant' : d.leases!.release(grant);
      }
      case 'advance':
        return 'advanced';
    }
  }
}
