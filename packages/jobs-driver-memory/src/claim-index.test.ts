import type { JobRecord } from '@x/jobs-core';
import type { ClaimedJob } from '@x/jobs-core/driver';
import { describe, expect, it } from 'vitest';
import { memoryJobDriver } from './memory-job-driver.js';
import { virtualClock } from './virtual-clock.js';

const QUEUES = ['a', 'b', 'c'];
const VISIBILITY_MS = 50;

/** A small deterministic generator, so a failure reproduces. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

/** The claim a full scan answers: every due row of the unpaused queues, sorted (the index must agree). */
function scanClaim(
  rows: readonly JobRecord[],
  queues: readonly string[],
  paused: readonly string[],
  now: number,
) {
  const due = rows.filter((row) => {
    if (!queues.includes(row.queue) || paused.includes(row.queue)) return false;
    if (row.state === 'ready') return true;
    if (row.state === 'delayed' || row.state === 'suspended') return row.runAt <= now;
    return row.state === 'running' && row.leaseExpiresAt !== null && row.leaseExpiresAt <= now;
  });
  // `list` answers newest first, so a row's position is its reversed enqueue order.
  const order = new Map(rows.map((row, index) => [row.id, rows.length - index]));
  return due
    .sort((x, y) => y.priority - x.priority || x.runAt - y.runAt || order.get(x.id)! - order.get(y.id)!)
    .map((row) => row.id);
}

describe('the claim index', () => {
  it('claims exactly what a full scan of the rows would, through random writes and clock moves', async () => {
    const next = random(11);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
    const clock = virtualClock(1_000_000);
    const driver = memoryJobDriver({ clock });
    const held: ClaimedJob[] = [];
    const paused: string[] = [];
    let enqueued = 0;
    let claims = 0;

    for (let step = 0; step < 1_500; step++) {
      const roll = next();
      if (roll < 0.3) {
        enqueued += 1;
        await driver.enqueue({
          id: `j${enqueued}`,
          runId: `r${enqueued}`,
          name: 'job',
          queue: pick(QUEUES),
          payload: null,
          tenantId: null,
          idempotencyKey: `k${enqueued}`,
          priority: pick([0, 0, 1, 5]),
          maxAttempts: 5,
          ...(next() < 0.3 ? { runAt: clock.now() + Math.floor(next() * 200) - 50 } : {}),
        });
      } else if (roll < 0.55) {
        const queues = QUEUES.filter(() => next() < 0.7);
        const limit = 1 + Math.floor(next() * 4);
        const { jobs: rows } = await driver.introspect!.list({ limit: 1_000 });
        const expected = scanClaim(rows, queues, paused, clock.now()).slice(0, limit);
        const claimed = await driver.claim({
          queues,
          limit,
          workerId: 'w',
          visibilityTimeoutMs: VISIBILITY_MS,
        });
        expect(claimed.map((job) => job.id)).toEqual(expected);
        held.push(...claimed);
        claims += claimed.length;
      } else if (roll < 0.75 && held.length > 0) {
        const job = held.splice(Math.floor(next() * held.length), 1)[0]!;
        const settle = pick(['ack', 'retry', 'release', 'suspend', 'heartbeat', 'dead']);
        const runAt = clock.now() + Math.floor(next() * 100);
        const error = { code: 'ERROR', message: 'x' };
        if (settle === 'ack') await driver.ack(job.id, job.claim, null);
        else if (settle === 'retry') await driver.nack(job.id, job.claim, { kind: 'retry', runAt, error });
        else if (settle === 'release') await driver.nack(job.id, job.claim, { kind: 'release', runAt });
        else if (settle === 'suspend')
          await driver.nack(job.id, job.claim, { kind: 'suspend', runAt, waitFor: 'go' });
        else if (settle === 'dead')
          await driver.nack(job.id, job.claim, { kind: 'dead', error, stopReason: 'attempts-exhausted' });
        else if (await driver.heartbeat(job.id, job.claim, VISIBILITY_MS)) held.push(job);
      } else if (roll < 0.85) {
        clock.advance(Math.floor(next() * 40));
      } else if (roll < 0.88) {
        clock.set(clock.now() - Math.floor(next() * 60));
      } else if (roll < 0.92) {
        const queue = pick(QUEUES);
        if (paused.includes(queue)) {
          paused.splice(paused.indexOf(queue), 1);
          await driver.introspect!.resume(queue);
        } else {
          paused.push(queue);
          await driver.introspect!.pause(queue);
        }
      } else if (roll < 0.95 && enqueued > 0) {
        await driver.introspect!.promote(`j${1 + Math.floor(next() * enqueued)}`);
      } else if (roll < 0.97) {
        await driver.events.publish('go', {}, { ttlMs: 1_000 });
      } else if (enqueued > 0) {
        await driver.introspect!.cancel(`j${1 + Math.floor(next() * enqueued)}`);
      }
    }
    expect(claims).toBeGreaterThan(200);
  }, 120_000); // 1,500 random steps, each claim checked against a full scan: slow on a loaded machine
});
