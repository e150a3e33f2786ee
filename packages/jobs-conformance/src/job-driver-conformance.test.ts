import { errorCode, type JobDriver } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import type { DriverSetup } from './job-driver-case.js';
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

  it('answers not-certified, without creating a driver, for a peer case without openPeer', async () => {
    let created = 0;
    const peerCase = { group: 'peer', name: 'needs one', run: async () => undefined };
    const create = () => {
      created += 1;
      return fakeDriver([]);
    };
    const result = await runJobDriverCase(peerCase, { create });
    expect(result).toMatchObject({ status: 'not-certified', feature: 'peer' });
    expect(created).toBe(0);
  });

  it('answers not-certified for a case needing queue settings when create never read them, and runs it when create did', async () => {
    const closed: string[] = [];
    let ran = 0;
    const fairCase = {
      group: 'fairness',
      name: 'needs a fair queue',
      setup: (queue: string) => ({ queues: { [queue]: { fairness: 'tenant' as const } } }),
      run: async () => void ran++,
    };
    const ignored = await runJobDriverCase(fairCase, { create: () => fakeDriver(closed) });
    expect(ignored).toMatchObject({ status: 'not-certified', feature: 'fairness' });
    expect(ignored.status === 'not-certified' && ignored.reason).toContain('setup.queues');
    expect(ran, 'the case never ran on a driver without its settings').toBe(0);
    const given: unknown[] = [];
    for (const create of [
      ({ queues }: DriverSetup) => {
        given.push(queues);
        return fakeDriver(closed);
      },
      (setup: DriverSetup) => {
        given.push({ ...setup }.queues);
        return fakeDriver(closed);
      },
    ]) {
      expect(await runJobDriverCase(fairCase, { create })).toEqual({ status: 'passed' });
    }
    expect(ran).toBe(2);
    expect(given.map((queues) => Object.values(queues as object))).toEqual([
      [{ fairness: 'tenant' }],
      [{ fairness: 'tenant' }],
    ]);
    expect(closed, 'every driver created is disposed of, the skipped one too').toHaveLength(3);
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
