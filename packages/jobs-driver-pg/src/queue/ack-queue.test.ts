import { describe, expect, it } from 'vitest';
import { AckQueue, type PendingAck } from './ack-queue.js';

/** A sender that records each batch and answers when `release` is called. */
function gatedSender() {
  const batches: string[][] = [];
  const gates: (() => void)[] = [];
  const send = (acks: readonly PendingAck[]) => {
    batches.push(acks.map((ack) => ack.id));
    return new Promise<readonly boolean[]>((resolve) => {
      gates.push(() => resolve(acks.map((ack) => ack.token === 'ok')));
    });
  };
  const release = () => {
    for (const open of gates.splice(0)) open();
  };
  return { batches, send, release };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Lets every queued continuation and flush of the queue run. */
const settle = async () => {
  for (let i = 0; i < 3; i += 1) await tick();
};

describe('AckQueue', () => {
  it("gathers a tick's acks into one statement and answers each from it", async () => {
    const { batches, send, release } = gatedSender();
    const queue = new AckQueue(send, 100, 1);
    const answers = Promise.all([queue.ack('a', 'ok', null), queue.ack('b', 'stale', null)]);
    await tick();
    expect(batches).toEqual([['a', 'b']]);
    release();
    expect(await answers).toEqual([true, false]);
  });

  it('keeps at most maxInFlight statements out; later acks wait, at most maxBatch per statement', async () => {
    const { batches, send, release } = gatedSender();
    const queue = new AckQueue(send, 2, 1);
    const first = queue.ack('a', 'ok', null);
    await tick();
    const later = ['b', 'c', 'd'].map((id) => queue.ack(id, 'ok', null));
    await tick();
    expect(batches).toEqual([['a']]);
    release();
    await first;
    await settle();
    expect(batches).toEqual([['a'], ['b', 'c']]);
    release();
    await settle();
    release();
    expect(await Promise.all(later)).toEqual([true, true, true]);
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('hands pending acks to a claim (take), which settles them instead of a statement of their own', async () => {
    const { batches, send } = gatedSender();
    const queue = new AckQueue(send, 100, 1);
    const acked = queue.ack('a', 'ok', null);
    const taken = queue.take(10);
    expect(taken.map((ack) => ack.id)).toEqual(['a']);
    taken[0]?.resolve(true);
    expect(await acked).toBe(true);
    await tick();
    expect(batches).toEqual([]);
  });

  it('fails every ack of a statement that failed', async () => {
    const queue = new AckQueue(() => Promise.reject(new Error('down')), 100, 1);
    await expect(queue.ack('a', 'ok', null)).rejects.toThrow('down');
  });
});
