import { errorCode, type JobDriver } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { JOB_DRIVER_CASES, PEER_CASES, WAKE_CASES } from './job-driver-cases.js';
import { jobDriverConformance, runJobDriverCase } from './job-driver-conformance.js';

const thrownBy = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('jobDriverConformance', () => {
  it.each([
    ['an empty name', { name: ' ', create: () => ({}) as JobDriver }],
    ['a create that is not a function', { name: 'x', create: 'nope' as unknown as () => JobDriver }],
    ['a zero tick', { name: 'x', create: () => ({}) as JobDriver, tickMs: 0 }],
    ['a NaN tick', { name: 'x', create: () => ({}) as JobDriver, tickMs: Number.NaN }],
  ])('refuses %s with X_CONFORMANCE_OPTIONS_INVALID', (_label, options) => {
    expect(errorCode(thrownBy(() => jobDriverConformance(options)))).toBe('X_CONFORMANCE_OPTIONS_INVALID');
  });
});

describe('the case catalogue', () => {
  const all = [...JOB_DRIVER_CASES, ...WAKE_CASES, ...PEER_CASES];

  it('names every case uniquely within its group', () => {
    const names = all.map((testCase) => `${testCase.group}: ${testCase.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('covers every member of JobDriver, each group with cases of its own', () => {
    const groups = new Set(all.map((testCase) => testCase.group));
    expect([...groups].sort()).toEqual(
      [
        'attempt errors',
        'attempts',
        'backfills',
        'bounds',
        'cancel',
        'claim',
        'claimable',
        'close',
        'dedupe',
        'driver',
        'enqueue',
        'events',
        'fairness',
        'fencing',
        'fencing by token',
        'introspect',
        'leases',
        'listing order',
        'nack',
        'operator refusals',
        'order',
        'peer',
        'preservation',
        'promote-due',
        'rate limits',
        'schedules',
        'stats',
        'steps',
        'suspend gap',
        'terminal',
        'unknown job name',
        'values',
        'visibility',
        'wake',
      ].sort(),
    );
  });
});

describe('runJobDriverCase', () => {
  const fakeDriver = (closed: string[]) =>
    ({ close: async () => void closed.push('closed') }) as unknown as JobDriver;

  it('disposes of the driver after a passing case and after a failing one', async () => {
    const closed: string[] = [];
    const pass = { group: 'g', name: 'passes', run: async () => undefined };
    const fail = {
      group: 'g',
      name: 'fails',
      run: async () => {
        throw new Error('assertion');
      },
    };
    await runJobDriverCase(pass, { create: () => fakeDriver(closed) });
    await expect(runJobDriverCase(fail, { create: () => fakeDriver(closed) })).rejects.toThrow('assertion');
    expect(closed).toEqual(['closed', 'closed']);
  });

  it('calls destroy instead of close when given, with what create answered', async () => {
    const closed: string[] = [];
    const subject = { driver: fakeDriver(closed) };
    const destroyed: unknown[] = [];
    const pass = { group: 'g', name: 'passes', run: async () => undefined };
    await runJobDriverCase(pass, { create: async () => subject, destroy: (s) => void destroyed.push(s) });
    expect(destroyed).toEqual([subject]);
    expect(closed).toEqual([]);
  });

  it('opens a peer only for a peer case, hands it to the harness, and closes it before the driver', async () => {
    const closed: string[] = [];
    const peer = { close: async () => void closed.push('peer') } as unknown as JobDriver;
    const seen: unknown[] = [];
    const opened: unknown[] = [];
    const options = {
      create: () => fakeDriver(closed),
      openPeer: (subject: JobDriver) => {
        opened.push(subject);
        return peer;
      },
    };
    const peerCase = {
      group: 'peer',
      name: 'uses it',
      run: async (h: { peer: { driver: JobDriver } }) => void seen.push(h.peer.driver),
    };
    await runJobDriverCase(peerCase, options);
    expect(seen).toEqual([peer]);
    expect(opened).toHaveLength(1);
    expect(closed).toEqual(['peer', 'closed']);
    await runJobDriverCase({ group: 'g', name: 'no peer', run: async () => undefined }, options);
    expect(opened, 'no peer for a case of another group').toHaveLength(1);
  });
});
