import type { JobDriver } from '@x/jobs-core';
import type { LeaseGrant } from '@x/jobs-core/driver';
import { describe, it } from 'vitest';
import { type Breakage, type BrokenDriver, expectCaught } from './broken-driver.js';

/**
 * The kinds of rule a suite of lower bounds and single-queue checks lets through, each broken
 * once: the named cases must catch every one.
 */

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A heartbeat buys twice the window it was asked for. */
const heartbeatOverExtends: Breakage = (inner) => ({
  ...inner,
  heartbeat: (id, claim, ms) => inner.heartbeat(id, claim, 2 * ms),
});

/** A claim's lease is twice the visibility timeout. */
const claimOverLeases: Breakage = (inner) => ({
  ...inner,
  claim: (options) => inner.claim({ ...options, visibilityTimeoutMs: 2 * options.visibilityTimeoutMs }),
});

/** A retry lands five seconds after the runAt it was given. */
const retryLate: Breakage = (inner) => ({
  ...inner,
  nack: (id, claim, options) =>
    inner.nack(id, claim, options.kind === 'retry' ? { ...options, runAt: options.runAt + 5_000 } : options),
});

/** A lease grant lives twice its TTL. */
const leaseOverLives: Breakage = (inner) => ({
  ...inner,
  leases: {
    ...inner.leases!,
    acquire: (key, holder, options) =>
      inner.leases!.acquire(key, holder, { ...options, ttlMs: 2 * options.ttlMs }),
    renew: (grant, ttlMs) => inner.leases!.renew(grant, 2 * ttlMs),
  },
});

/** A claim over several queues drains them one after another, in the order named. */
const claimsQueueByQueue: Breakage = (inner) => ({
  ...inner,
  async claim(options) {
    const claimed = [];
    for (const queue of options.queues) {
      if (claimed.length >= options.limit) break;
      claimed.push(
        ...(await inner.claim({ ...options, queues: [queue], limit: options.limit - claimed.length })),
      );
    }
    return claimed;
  },
});

/** Rows whose priority and runAt tie are ordered by their (random) id, not by enqueue order. */
const tiesByIdNotEnqueueOrder: Breakage = (inner) => {
  const nudge = (id: string) => (id.charCodeAt(0) + id.charCodeAt(1)) % 7;
  return {
    ...inner,
    enqueue: (request) =>
      inner.enqueue(
        request.runAt === undefined ? request : { ...request, runAt: request.runAt + nudge(request.id) },
      ),
    enqueueMany: (requests) =>
      inner.enqueueMany(
        requests.map((request) =>
          request.runAt === undefined ? request : { ...request, runAt: request.runAt + nudge(request.id) },
        ),
      ),
  };
};

/** Wakes fire only for enqueues: promote, publish, resume, nack and retry make rows due silently. */
const wakesOnlyOnEnqueue: Breakage = (inner) => {
  let muted = 0;
  const mute =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      muted += 1;
      try {
        return await fn(...args);
      } finally {
        setTimeout(() => {
          muted -= 1;
        }, 100);
      }
    };
  const introspect = inner.introspect!;
  return {
    ...inner,
    nack: mute(inner.nack),
    events: { ...inner.events, publish: mute(inner.events.publish) },
    introspect: {
      ...introspect,
      promote: mute(introspect.promote),
      resume: mute(introspect.resume),
      retry: mute(introspect.retry),
    },
    wake: {
      subscribe: (listener) =>
        inner.wake!.subscribe((queue) => {
          if (muted === 0) listener(queue);
        }),
    },
  };
};

/** Cancelling a delayed or waiting row only hides it: its timer or its event brings it back. */
const cancelRevivesOverTime: Breakage = (inner) => {
  const introspect = inner.introspect!;
  const cancelled = new Map<string, number>();
  const revive = async (due: (runAt: number) => boolean) => {
    for (const [id, runAt] of cancelled) {
      if (!due(runAt)) continue;
      cancelled.delete(id);
      await introspect.retry(id);
    }
  };
  return {
    ...inner,
    async claim(options) {
      await revive((runAt) => runAt <= inner.now());
      return inner.claim(options);
    },
    events: {
      ...inner.events,
      async publish(event, payload, options) {
        const record = await inner.events.publish(event, payload, options);
        await revive(() => true);
        return record;
      },
    },
    introspect: {
      ...introspect,
      async cancel(id, reason) {
        const before = await introspect.get(id);
        const done = await introspect.cancel(id, reason);
        if (done && before !== null && before.state !== 'ready') cancelled.set(id, before.runAt);
        return done;
      },
    },
  };
};

/** Lease release and renew are fenced on the holder's name: a lapsed grant acts on its holder's new one. */
const leaseFencedOnHolder: Breakage = (inner) => {
  const leases = inner.leases!;
  const current = async (grant: LeaseGrant) =>
    (await leases.holders(grant.key)).find((held) => held.holder === grant.holder) ?? grant;
  return {
    ...inner,
    leases: {
      ...leases,
      release: async (grant) => leases.release(await current(grant)),
      renew: async (grant, ttlMs) => leases.renew(await current(grant), ttlMs),
    },
  };
};

/** setPaused reads the row, then writes it back whole: a watermark moved meanwhile is lost. */
const schedulePauseOverwritesRow: Breakage = (inner) => {
  const schedules = inner.schedules!;
  return {
    ...inner,
    schedules: {
      ...schedules,
      async setPaused(task, paused) {
        const read = await schedules.get(task);
        await tick();
        await schedules.setPaused(task, paused);
        const now = await schedules.get(task);
        if (read !== null && now !== null && now.watermark !== read.watermark && read.watermark !== null) {
          await schedules.advance(task, now.watermark, read.watermark);
        }
      },
    },
  };
};

/** Steps are keyed by the job's name and key, not its run: a new run of the key sees the old run's steps. */
const stepsScopedByJobKey: Breakage = (inner) => {
  const firstRunOf = new Map<string, string>();
  const runAlias = new Map<string, string>();
  const scoped = (runId: string) => runAlias.get(runId) ?? runId;
  return {
    ...inner,
    async claim(options) {
      const jobs = await inner.claim(options);
      for (const job of jobs) {
        const scope = JSON.stringify([job.name, job.tenantId, job.idempotencyKey]);
        const first = firstRunOf.get(scope) ?? job.runId;
        firstRunOf.set(scope, first);
        runAlias.set(job.runId, first);
      }
      return jobs;
    },
    steps: {
      load: (runId) => inner.steps.load(scoped(runId)),
      save: (fence, step) => inner.steps.save({ ...fence, runId: scoped(fence.runId) }, step),
    },
  };
};

/** A retry without fromStep starts the run from its first step, dropping every recorded one. */
const retryDropsSteps: Breakage = (inner) => {
  const introspect = inner.introspect!;
  return {
    ...inner,
    introspect: {
      ...introspect,
      async retry(id, options) {
        if (options?.fromStep !== undefined) return introspect.retry(id, options);
        const first = [...((await introspect.get(id))?.steps ?? [])].sort(
          (a, b) => a.position - b.position,
        )[0];
        return introspect.retry(id, first === undefined ? undefined : { fromStep: first.name });
      },
    },
  };
};

/** oldestReadyAgeMs looks only at ready rows: due delayed and suspended rows are not counted. */
const dueAgeIgnoresDelayed = (inner: JobDriver): JobDriver => {
  const introspect = inner.introspect!;
  return {
    ...inner,
    async stats() {
      const all = await inner.stats();
      return Promise.all(
        all.map(async (stats) => {
          const ready = (await introspect.list({ queue: stats.queue, state: 'ready', limit: 1000 })).jobs;
          const oldest = Math.min(...ready.map((row) => row.runAt));
          return { ...stats, oldestReadyAgeMs: ready.length === 0 ? null : inner.now() - oldest };
        }),
      );
    },
  };
};

const DEEP: readonly BrokenDriver[] = [
  {
    name: 'over-extends a heartbeat',
    breakage: heartbeatOverExtends,
    caughtBy: ['bounds: a heartbeat moves the lease'],
  },
  { name: 'over-leases a claim', breakage: claimOverLeases, caughtBy: ['bounds: a claim stamps its lease'] },
  { name: 'lands a retry late', breakage: retryLate, caughtBy: ['bounds: a retry and a release keep'] },
  {
    name: 'over-lives a lease grant',
    breakage: leaseOverLives,
    caughtBy: ['bounds: a lease grant and its renewal'],
  },
  {
    name: 'claims queue by queue',
    breakage: claimsQueueByQueue,
    caughtBy: [
      'order: priority orders rows across every queue',
      'order: within a priority, the earlier runAt wins across queues',
      'order: a batch claim takes the first rows',
    ],
  },
  {
    name: 'orders ties by id',
    breakage: tiesByIdNotEnqueueOrder,
    caughtBy: ['order: rows that tie on priority'],
  },
  {
    name: 'wakes only on enqueue',
    breakage: wakesOnlyOnEnqueue,
    caughtBy: [
      'wake: publishing the event a row waits for',
      'wake: promoting a delayed row',
      'wake: resuming a paused queue',
      'wake: a retry or a release due now',
      "wake: an operator's retry of a dead row",
    ],
  },
  {
    name: 'revives cancelled rows over time',
    breakage: cancelRevivesOverTime,
    caughtBy: [
      'terminal: a cancelled delayed row stays cancelled',
      'terminal: a cancelled sleeping row stays cancelled',
      'terminal: a cancelled row waiting for an event',
    ],
  },
  {
    name: 'fences leases on the holder',
    breakage: leaseFencedOnHolder,
    caughtBy: ['fencing by token: a lapsed lease grant cannot release'],
  },
  {
    name: 'overwrites a schedule row on pause',
    breakage: schedulePauseOverwritesRow,
    caughtBy: ["preservation: a schedule's pause flag and watermark"],
  },
  {
    name: 'scopes steps by job key',
    breakage: stepsScopedByJobKey,
    caughtBy: ['preservation: steps of one run never'],
  },
  {
    name: 'drops steps on retry',
    breakage: retryDropsSteps,
    caughtBy: ['preservation: retrying a dead job without fromStep'],
  },
  {
    name: 'ages only ready rows',
    breakage: dueAgeIgnoresDelayed,
    caughtBy: [
      'stats: oldestReadyAgeMs counts a delayed row',
      'stats: oldestReadyAgeMs counts a suspended row',
    ],
  },
];

describe('the conformance suite catches the deeper kinds of broken driver', () => {
  for (const { name, breakage, caughtBy } of DEEP) {
    for (const prefix of caughtBy) {
      it(`a driver that ${name} fails "${prefix}…"`, () => expectCaught(breakage, prefix));
    }
  }
});
