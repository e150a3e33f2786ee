import type { JobDriver, JobIntrospection } from '@x/jobs-core';
import type { ClaimRef } from '@x/jobs-core/driver';
import { describe, it } from 'vitest';
import { type Breakage, type BrokenDriver, expectCaught } from './broken-driver.js';

/**
 * The suite proves it can fail: each wrapper below breaks one guarantee of the memory driver, and
 * the named cases must pass on the healthy driver and fail — with an assertion, not a crash — on
 * the broken one. (Breakages of the deeper kinds — upper bounds, orders across queues, wakes of
 * every transition, terminal over time, token fencing, preservation — are in
 * `conformance-catches-deep-breakages.test.ts`.)
 */

const FOREVER = 10 ** 12;
const introspectOf = (driver: JobDriver): JobIntrospection => driver.introspect!;

/** Claim does not take the row: every claimer gets the same rows. */
const handsOneJobToTwoClaimers: Breakage = (inner) => ({
  ...inner,
  async claim(options) {
    const jobs = await inner.claim(options);
    for (const job of jobs) await inner.nack(job.id, job.claim, { kind: 'release' });
    return jobs;
  },
});

/** One settle fenced on the job id only: the latest claim's token is substituted for whatever came in. */
function ignoresFencingOn(member: 'ack' | 'nack' | 'heartbeat' | 'progress' | 'steps.save'): Breakage {
  return (inner) => {
    const latest = new Map<string, ClaimRef>();
    const current = (jobId: string, claim: ClaimRef) => latest.get(jobId) ?? claim;
    const driver: JobDriver = {
      ...inner,
      async claim(options) {
        const jobs = await inner.claim(options);
        for (const job of jobs) latest.set(job.id, job.claim);
        return jobs;
      },
    };
    switch (member) {
      case 'ack':
        return { ...driver, ack: (id, claim, result) => inner.ack(id, current(id, claim), result) };
      case 'nack':
        return { ...driver, nack: (id, claim, options) => inner.nack(id, current(id, claim), options) };
      case 'heartbeat':
        return { ...driver, heartbeat: (id, claim, ms) => inner.heartbeat(id, current(id, claim), ms) };
      case 'progress':
        return {
          ...driver,
          progress: (id, claim, progress) => inner.progress(id, current(id, claim), progress),
        };
      case 'steps.save':
        return {
          ...driver,
          steps: {
            load: inner.steps.load,
            save: (fence, step) =>
              inner.steps.save({ ...fence, claim: current(fence.jobId, fence.claim) }, step),
          },
        };
    }
  };
}

/** Dedupe against every row ever written, terminal ones included. */
const dedupesTerminalRows: Breakage = (inner) => {
  const seen = new Map<string, { id: string; runId: string }>();
  return {
    ...inner,
    async enqueue(request) {
      const scope = JSON.stringify([request.name, request.tenantId, request.idempotencyKey]);
      const earlier = seen.get(scope);
      if (earlier !== undefined) return { ...earlier, deduped: true };
      const result = await inner.enqueue(request);
      seen.set(scope, { id: result.id, runId: result.runId });
      return result;
    },
  };
};

/** Dedupe scoped by (name, key) only: tenants collide. */
const dedupeIgnoresTenant: Breakage = (inner) => ({
  ...inner,
  enqueue: (request) =>
    inner.enqueue({
      ...request,
      idempotencyKey: `${request.name}|${request.idempotencyKey}`,
      tenantId: null,
    }),
});

/** Lease TTLs are ignored: a slot is held until released. */
const leasesNeverExpire: Breakage = (inner) => ({
  ...inner,
  leases: {
    ...inner.leases!,
    acquire: (key, holder, options) => inner.leases!.acquire(key, holder, { ...options, ttlMs: FOREVER }),
    renew: (grant) => inner.leases!.renew(grant, FOREVER),
  },
});

/** Every row is stored at priority 0. */
const ignoresPriority: Breakage = (inner) => ({
  ...inner,
  enqueue: (request) => inner.enqueue({ ...request, priority: 0 }),
});

/** Later rows get earlier run times: last in, first out. */
const claimsNewestFirst: Breakage = (inner) => {
  let shift = 0;
  return {
    ...inner,
    enqueue(request) {
      shift += 1;
      return inner.enqueue({ ...request, runAt: (request.runAt ?? inner.now()) - shift });
    },
  };
};

/** runAt is dropped: delayed rows are claimable at once. */
const ignoresRunAt: Breakage = (inner) => ({
  ...inner,
  enqueue: ({ runAt: _runAt, ...request }) => inner.enqueue(request),
});

/** Pause is only remembered, never applied to claims. */
const claimsPausedQueues: Breakage = (inner) => {
  const paused = new Set<string>();
  return {
    ...inner,
    introspect: {
      ...introspectOf(inner),
      pause: async (queue) => void paused.add(queue),
      resume: async (queue) => void paused.delete(queue),
      pausedQueues: async () => [...paused],
    },
  };
};

/** A redelivery after a lapsed lease reports (and shows) the lapsed attempt as if it never happened. */
const uncountedVisibilityExpiry: Breakage = (inner) => {
  const claimedBefore = new Set<string>();
  const discount = new Map<string, number>();
  return {
    ...inner,
    async claim(options) {
      const jobs = await inner.claim(options);
      return jobs.map((job) => {
        if (claimedBefore.has(job.id)) discount.set(job.id, (discount.get(job.id) ?? 0) + 1);
        claimedBefore.add(job.id);
        return { ...job, attempt: job.attempt - (discount.get(job.id) ?? 0) };
      });
    },
    introspect: {
      ...introspectOf(inner),
      async get(id) {
        const detail = await introspectOf(inner).get(id);
        return detail === null ? null : { ...detail, attempts: detail.attempts - (discount.get(id) ?? 0) };
      },
    },
  };
};

/** The claim starts every row it takes: attempts count claims, not bodies that started. */
const countsAttemptsAtClaim: Breakage = (inner) => ({
  ...inner,
  async claim(options) {
    const jobs = await inner.claim(options);
    for (const job of jobs) await inner.start(job.id, job.claim, options.visibilityTimeoutMs);
    return jobs;
  },
  start: async () => true,
});

/** start answers true for any claim, held or not, and counts nothing when it is not. */
const startNotFenced: Breakage = (inner) => ({
  ...inner,
  start: async (id, claim, ms) => (await inner.start(id, claim, ms)) || true,
});

/** Heartbeats answer true but extend the lease by a millisecond. */
const heartbeatDoesNotExtend: Breakage = (inner) => ({
  ...inner,
  heartbeat: (id, claim) => inner.heartbeat(id, claim, 1),
});

/** Events outlive their TTL. */
const eventsNeverExpire: Breakage = (inner) => ({
  ...inner,
  events: {
    ...inner.events,
    publish: (event, payload) => inner.events.publish(event, payload, { ttlMs: FOREVER }),
  },
});

/** find ignores `match`. */
const eventMatchIgnored: Breakage = (inner) => ({
  ...inner,
  events: { ...inner.events, find: (event, { since }) => inner.events.find(event, { since }) },
});

/** advance writes whatever watermark is stored: no compare-and-set. */
const scheduleAdvanceWithoutCas: Breakage = (inner) => ({
  ...inner,
  schedules: {
    ...inner.schedules!,
    async advance(task, _expected, next) {
      const stored = await inner.schedules!.get(task);
      return inner.schedules!.advance(task, stored?.watermark ?? null, next);
    },
  },
});

/** retry ignores fromStep: a retried run replays every step. */
const retryIgnoresFromStep: Breakage = (inner) => ({
  ...inner,
  introspect: { ...introspectOf(inner), retry: (id) => introspectOf(inner).retry(id) },
});

/** Worker reports never lapse. */
const workersNeverExpire: Breakage = (inner) => ({
  ...inner,
  introspect: {
    ...introspectOf(inner),
    reportWorker: (info) => introspectOf(inner).reportWorker(info, FOREVER),
  },
});

/** enqueueMany answers in reverse. */
const enqueueManyReordered: Breakage = (inner) => ({
  ...inner,
  enqueueMany: async (requests) => [...(await inner.enqueueMany(requests))].reverse(),
});

/** subscribe accepts listeners and never calls them. */
const wakeNeverDelivers: Breakage = (inner) => ({ ...inner, wake: { subscribe: () => () => undefined } });

/** unsubscribe does nothing: a stopped worker keeps hearing wakes. */
const unsubscribeIgnored: Breakage = (inner) => ({
  ...inner,
  wake: {
    subscribe(listener) {
      inner.wake!.subscribe(listener);
      return () => undefined;
    },
  },
});

/** now() reads the wall clock, not the clock the rows are timed by. */
const nowIgnoresClock: Breakage = (inner) => ({ ...inner, now: () => Date.now() });

/** close() does nothing: the driver keeps answering. */
const closeIgnored: Breakage = (inner) => ({ ...inner, close: async () => undefined });

const BROKEN: readonly BrokenDriver[] = [
  {
    name: 'hands one job to two claimers',
    breakage: handsOneJobToTwoClaimers,
    caughtBy: ['claim: racing claimers', 'visibility: a claimed row is invisible'],
  },
  {
    name: 'ignores fencing on ack',
    breakage: ignoresFencingOn('ack'),
    caughtBy: ['fencing: ack with a stale'],
  },
  {
    name: 'ignores fencing on nack',
    breakage: ignoresFencingOn('nack'),
    caughtBy: ['fencing: nack with a stale'],
  },
  {
    name: 'ignores fencing on heartbeat',
    breakage: ignoresFencingOn('heartbeat'),
    caughtBy: ['fencing: heartbeat with a stale'],
  },
  {
    name: 'ignores fencing on progress',
    breakage: ignoresFencingOn('progress'),
    caughtBy: ['fencing: progress with a stale'],
  },
  {
    name: 'ignores fencing on steps.save',
    breakage: ignoresFencingOn('steps.save'),
    caughtBy: ['fencing: steps.save with a stale'],
  },
  {
    name: 'dedupes terminal rows',
    breakage: dedupesTerminalRows,
    caughtBy: ['enqueue: a key whose row is done, dead or cancelled'],
  },
  {
    name: 'leaves the tenant out of the dedupe scope',
    breakage: dedupeIgnoresTenant,
    caughtBy: ['enqueue: dedupe is scoped'],
  },
  {
    name: 'never expires leases',
    breakage: leasesNeverExpire,
    caughtBy: ['leases: an expired slot is free'],
  },
  {
    name: 'ignores priority',
    breakage: ignoresPriority,
    caughtBy: ['claim: higher priority is claimed first'],
  },
  {
    name: 'claims newest first',
    breakage: claimsNewestFirst,
    caughtBy: ['claim: within a priority, rows are claimed in enqueue order'],
  },
  { name: 'ignores runAt', breakage: ignoresRunAt, caughtBy: ['claim: a delayed row is invisible'] },
  {
    name: 'claims paused queues',
    breakage: claimsPausedQueues,
    caughtBy: ['claim: a paused queue is skipped'],
  },
  {
    name: 'does not count the attempt on visibility expiry',
    breakage: uncountedVisibilityExpiry,
    caughtBy: ['visibility: an un-acked row is claimable again'],
  },
  {
    name: 'counts attempts at claim',
    breakage: countsAttemptsAtClaim,
    caughtBy: ['attempts: a claim counts no attempt', 'attempts: a lapsed claim that never started'],
  },
  {
    name: 'answers start without fencing',
    breakage: startNotFenced,
    caughtBy: ['attempts: start is fenced', 'attempts: a cancelled row cannot be started'],
  },
  {
    name: 'heartbeats without extending',
    breakage: heartbeatDoesNotExtend,
    caughtBy: ['visibility: a heartbeat extends the lease'],
  },
  {
    name: 'never expires events',
    breakage: eventsNeverExpire,
    caughtBy: ['events: an expired event is no longer found'],
  },
  {
    name: 'ignores event match',
    breakage: eventMatchIgnored,
    caughtBy: ['events: find matches by JSON containment'],
  },
  {
    name: 'advances schedules without compare-and-set',
    breakage: scheduleAdvanceWithoutCas,
    caughtBy: ['schedules: advance is a compare-and-set'],
  },
  {
    name: 'ignores retry fromStep',
    breakage: retryIgnoresFromStep,
    caughtBy: ['introspect: retry fromStep'],
  },
  {
    name: 'never expires worker reports',
    breakage: workersNeverExpire,
    caughtBy: ['introspect: workers are listed within their TTL'],
  },
  {
    name: 'reorders enqueueMany answers',
    breakage: enqueueManyReordered,
    caughtBy: ['enqueue: enqueueMany answers in request order'],
  },
  {
    name: 'never delivers a wake',
    breakage: wakeNeverDelivers,
    caughtBy: [
      'wake: a subscriber hears the queue of a newly ready row',
      'wake: a subscriber hears every queue',
    ],
  },
  { name: 'ignores unsubscribe', breakage: unsubscribeIgnored, caughtBy: ['wake: an unsubscribed listener'] },
  {
    name: 'answers now() from another clock',
    breakage: nowIgnoresClock,
    caughtBy: ['driver: now() is the clock'],
  },
  {
    name: 'keeps answering after close',
    breakage: closeIgnored,
    caughtBy: ['close: close twice is safe', 'close: every queue call after close'],
  },
];

describe('the conformance suite catches broken drivers', () => {
  for (const { name, breakage, caughtBy } of BROKEN) {
    for (const prefix of caughtBy) {
      it(`a driver that ${name} fails "${prefix}…"`, () => expectCaught(breakage, prefix));
    }
  }
});
