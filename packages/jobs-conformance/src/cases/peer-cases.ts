import { awaitResult, errorCode } from '@x/jobs-core';
import { expect } from 'vitest';
import { type DriverHarness, LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { type WakeOnlyReads, wakeOnlyReads } from '../wake-only-reads.js';
import { ackUntilHeard, listenSettled } from './settle-wake-cases.js';

/** The group of the cases that need a second instance (`openPeer`). */
export const PEER_GROUP = 'peer';

/** What a wait came to: `'resolved'`, or the code it rejected with. */
const outcome = (wait: Promise<unknown>): Promise<string | undefined> =>
  wait.then(
    () => 'resolved',
    (error: unknown) => errorCode(error),
  );

/**
 * Subscribes to `h.driver`'s settle wake and has the peer ack rows until it is heard (a backend may
 * take a round trip before a new subscription is live). Answers the unsubscribe; keep it
 * subscribed while the case awaits, so the wake stays live.
 */
async function liveSettleWake(h: DriverHarness): Promise<() => void> {
  const { heard, unsubscribe } = listenSettled(h);
  expect(await ackUntilHeard(h.peer, heard), "the driver's settle wake hears the peer's acks").toBe(true);
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
      const [job] = await h.peer.claim(h.queue, { workerId: 'peer' });
      expect(job?.id).toBe(id);
      expect(await h.claim(h.queue)).toEqual([]);
      expect(await h.peer.driver.start(job!.id, job!.claim, LONG_MS)).toBe(true);
      expect(await h.peer.driver.ack(job!.id, job!.claim, { total: 42 })).toBe(true);
      expect(await h.row(id)).toMatchObject({ state: 'done', result: { total: 42 }, attempts: 1 });
    },
  },
  {
    group: PEER_GROUP,
    name: "awaitResult hears the other instance's acks (sent together) and dead-letter through the settle wake, not its poll",
    run: (h) =>
      onSettleWake(h, async (waitFor, view) => {
        const done = [await h.peer.started(), await h.peer.started()];
        const dead = await h.peer.started();
        const results = Promise.all(done.map((job) => waitFor(job.id)));
        const failure = outcome(waitFor(dead.id));
        const acked = await Promise.all(done.map((job, i) => h.peer.driver.ack(job.id, job.claim, { n: i })));
        expect(acked).toEqual([true, true]);
        expect(
          await h.peer.driver.nack(dead.id, dead.claim, {
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
        const { id } = await h.peer.enqueue(h.queue);
        const waiting = outcome(waitFor(id));
        expect(await h.peer.introspect.cancel(id, 'not needed')).toBe(true);
        expect(await waiting).toBe('X_JOB_CANCELLED');
        expect(view.wakeReads).toBe(1);
      }),
  },
];
