import { awaitResult, errorCode } from '@x/jobs-core';
import type { SettledJobs } from '@x/jobs-core/driver';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { type WakeOnlyReads, wakeOnlyReads } from '../wake-only-reads.js';

/** The group of the cases that need a second instance (`openPeer`). */
export const PEER_GROUP = 'peer';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const LONG_MS = 3_600_000;

/** What a wait came to: `'resolved'`, or the code it rejected with. */
const outcome = (wait: Promise<unknown>): Promise<string | undefined> =>
  wait.then(
    () => 'resolved',
    (error: unknown) => errorCode(error),
  );

/** Enqueues a row through `h.peer` and starts it there: a job another process runs. */
async function startedOnPeer(h: DriverHarness, queue: string) {
  const { id } = await h.peer.enqueue(h.request(queue));
  const [job] = await h.peer.claim({
    queues: [queue],
    limit: 1,
    workerId: 'peer',
    visibilityTimeoutMs: LONG_MS,
  });
  expect(job?.id, 'the peer claims the row it enqueued').toBe(id);
  expect(await h.peer.start(job!.id, job!.claim, LONG_MS)).toBe(true);
  return job!;
}

/**
 * Subscribes to `h.driver`'s settle wake and has the peer ack rows on a warm-up queue until it is
 * heard, for up to 5 s (a backend may take a round trip before a new subscription is live).
 * Answers the unsubscribe; keep it subscribed while the case awaits, so the wake stays live.
 */
async function liveSettleWake(h: DriverHarness): Promise<() => void> {
  const subscribe = h.driver.wake?.subscribeSettled;
  expect(subscribe, 'driver.wake.subscribeSettled (the peer group requires the settle wake)').toBeDefined();
  const heard: SettledJobs[] = [];
  const unsubscribe = subscribe!.call(h.driver.wake, (jobs) => heard.push(jobs));
  const queue = h.unique('q-peer-warmup');
  const deadline = Date.now() + 5_000;
  let live = false;
  while (!live && Date.now() < deadline) {
    const job = await startedOnPeer(h, queue);
    expect(await h.peer.ack(job.id, job.claim, null)).toBe(true);
    const attemptEnds = Math.min(deadline, Date.now() + 250);
    while (!live && Date.now() < attemptEnds) {
      await sleep(10);
      live = heard.some((jobs) => jobs === null || jobs.includes(job.id));
    }
  }
  expect(live, "the driver's settle wake hears the peer's acks").toBe(true);
  return unsubscribe;
}

/**
 * Runs `body` with `h.driver`'s settle wake live, handing it `waitFor(id)`: `awaitResult` of `id`
 * read through {@link wakeOnlyReads} (its poll every 200 ms cannot end the wait; 15 s ends a lost
 * wake with `X_JOB_RESULT_TIMEOUT`), and the view, whose `wakeReads` the body may check.
 */
async function onSettleWake(
  h: DriverHarness,
  body: (waitFor: (id: string) => Promise<unknown>, view: WakeOnlyReads) => Promise<void>,
): Promise<void> {
  const unsubscribe = await liveSettleWake(h);
  try {
    const view = wakeOnlyReads(h.driver);
    await body((id) => awaitResult(id, { driver: view.driver, poll: '200ms', timeout: '15s' }), view);
  } finally {
    unsubscribe();
  }
}

/**
 * Two instances of one driver over the same backend: what another process sees. Every read a
 * case waits on goes through {@link wakeOnlyReads}, so a settle is proven heard through the settle
 * wake, with no clock: a fallback poll cannot end those waits, however slow the machine.
 */
export const peerCases: readonly JobDriverCase[] = [
  {
    group: PEER_GROUP,
    name: "a row one instance enqueues, the other claims and acks; the first reads it done, with the other's result",
    async run(h) {
      const { id } = await h.enqueue(h.queue);
      const [job] = await h.peer.claim({
        queues: [h.queue],
        limit: 5,
        workerId: 'peer',
        visibilityTimeoutMs: LONG_MS,
      });
      expect(job?.id).toBe(id);
      expect(
        await h.driver.claim({ queues: [h.queue], limit: 5, workerId: 'w', visibilityTimeoutMs: LONG_MS }),
      ).toEqual([]);
      expect(await h.peer.start(job!.id, job!.claim, LONG_MS)).toBe(true);
      expect(await h.peer.ack(job!.id, job!.claim, { total: 42 })).toBe(true);
      expect(await h.row(id)).toMatchObject({ state: 'done', result: { total: 42 }, attempts: 1 });
    },
  },
  {
    group: PEER_GROUP,
    name: "awaitResult hears the other instance's acks (sent together) and dead-letter through the settle wake, not its poll",
    run: (h) =>
      onSettleWake(h, async (waitFor, view) => {
        const done = [await startedOnPeer(h, h.queue), await startedOnPeer(h, h.queue)];
        const dead = await startedOnPeer(h, h.queue);
        const results = Promise.all(done.map((job) => waitFor(job.id)));
        const failure = outcome(waitFor(dead.id));
        const acked = await Promise.all(done.map((job, i) => h.peer.ack(job.id, job.claim, { n: i })));
        expect(acked).toEqual([true, true]);
        expect(
          await h.peer.nack(dead.id, dead.claim, {
            kind: 'dead',
            error: { code: 'X_CARD_DECLINED', message: 'declined' },
            stopReason: 'terminal',
          }),
        ).toBe(true);
        expect(await results).toEqual([{ n: 0 }, { n: 1 }]);
        expect(await failure).toBe('X_CARD_DECLINED');
        expect(view.wakeReads, 'each finished row was read on a settle wake').toBe(3);
      }),
  },
  {
    group: PEER_GROUP,
    name: 'a cancel by the other instance ends awaitResult with X_JOB_CANCELLED through the settle wake',
    run: (h) =>
      onSettleWake(h, async (waitFor, view) => {
        const { id } = await h.peer.enqueue(h.request(h.queue));
        const waiting = outcome(waitFor(id));
        const peerIntrospect = h.peer.introspect;
        expect(peerIntrospect, 'the peer has introspection').toBeDefined();
        expect(await peerIntrospect!.cancel(id, 'not needed')).toBe(true);
        expect(await waiting).toBe('X_JOB_CANCELLED');
        expect(view.wakeReads).toBe(1);
      }),
  },
];
