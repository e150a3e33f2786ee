import { randomUUID } from 'node:crypto';
import type { JobDriver, JobIntrospection } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueRow } from '../../test/memory-rows.js';
import { type JobSighting, jobEvents } from './job-events.js';
import { JobTail } from './job-tail.js';

const row = (fields: Partial<JobSighting>): JobSighting => ({
  id: 'j1',
  name: 'send',
  queue: 'q',
  state: 'ready',
  attempts: 0,
  maxAttempts: 3,
  lastError: null,
  steps: null,
  ...fields,
});

describe('jobEvents', () => {
  const error = { code: 'X_SMTP', message: 'down' };
  it.each([
    ['new ready row', null, row({}), ['enqueued']],
    ['claimed', row({}), row({ state: 'running', attempts: 1 }), ['started']],
    [
      'failed and requeued',
      row({ state: 'running', attempts: 1 }),
      row({ attempts: 1, lastError: error }),
      ['retried'],
    ],
    [
      'retried and re-claimed unseen',
      row({ state: 'running', attempts: 1 }),
      row({ state: 'running', attempts: 2 }),
      ['started'],
    ],
    [
      'dead',
      row({ state: 'running', attempts: 3 }),
      row({ state: 'dead', attempts: 3, lastError: error }),
      ['dead'],
    ],
    ['finished between polls', row({}), row({ state: 'done', attempts: 1 }), ['started', 'done']],
    ['first seen finished', null, row({ state: 'done', attempts: 1 }), ['done']],
    ['unchanged', row({ state: 'running', attempts: 1 }), row({ state: 'running', attempts: 1 }), []],
  ] as const)('%s', (_label, before, after, expected) => {
    expect(jobEvents(before, after, 1).map((event) => event.event)).toEqual(expected);
  });

  it('reports each step that completed or failed since the last look, once', () => {
    const before = row({
      state: 'running',
      attempts: 1,
      steps: new Map([['a', { status: 'completed', durationMs: 5 }]]),
    });
    const after = row({
      state: 'running',
      attempts: 1,
      steps: new Map([
        ['a', { status: 'completed', durationMs: 5 }],
        ['b', { status: 'failed', durationMs: null }],
        ['c', { status: 'started', durationMs: null }],
      ]),
    });
    expect(jobEvents(before, after, 1).map((event) => [event.event, event.step?.name])).toEqual([
      ['step', 'b'],
    ]);
  });
});

describe('JobTail (memory driver)', () => {
  let driver: JobDriver;
  let introspect: JobIntrospection;
  let queue: string;
  beforeEach(() => {
    driver = memoryJobDriver();
    introspect = driver.introspect as JobIntrospection;
    queue = `q-${randomUUID()}`;
  });
  afterEach(() => driver.close?.());

  it('takes stock first, then reports enqueue, start, step, retry and dead in order', async () => {
    await enqueueRow(driver, { name: 'old', queue });
    const tail = new JobTail(introspect, { queue });
    expect(await tail.poll(driver.now())).toEqual([]);
    const id = await enqueueRow(driver, { name: 'send', queue, maxAttempts: 2, priority: 10 });
    expect((await tail.poll(driver.now())).map((event) => [event.event, event.name])).toEqual([
      ['enqueued', 'send'],
    ]);

    // 'send' outranks 'old', so it is the one claimed.
    const claim = async () => {
      const [job] = await driver.claim({
        queues: [queue],
        limit: 1,
        workerId: 't',
        visibilityTimeoutMs: 60_000,
      });
      if (job?.id !== id) throw new Error('send was not claimed');
      // The body starts: the attempt is counted now (an attempt is a body that started).
      if (!(await driver.start(job.id, job.claim, 60_000))) throw new Error('send did not start');
      return job;
    };
    let job = await claim();
    await driver.steps.save(
      { jobId: job.id, runId: job.runId, claim: job.claim },
      {
        name: 'compose',
        position: 0,
        status: 'completed',
        output: 'hi',
        error: null,
        startedAt: 1,
        completedAt: 3,
      },
    );
    const started = await tail.poll(driver.now());
    expect(started.filter((event) => event.id === id).map((event) => event.event)).toEqual([
      'started',
      'step',
    ]);
    await driver.nack(job.id, job.claim, {
      kind: 'retry',
      runAt: driver.now(),
      error: { code: 'X_SMTP', message: 'down' },
    });
    expect(
      (await tail.poll(driver.now())).filter((event) => event.id === id).map((event) => event.event),
    ).toEqual(['retried']);
    job = await claim();
    await driver.nack(job.id, job.claim, {
      kind: 'dead',
      error: { code: 'X_SMTP', message: 'down' },
      stopReason: 'attempts-exhausted',
    });
    const ended = (await tail.poll(driver.now())).filter((event) => event.id === id);
    expect(ended.map((event) => event.event)).toEqual(['started', 'dead']);
    expect(ended[1]?.error).toEqual({ code: 'X_SMTP', message: 'down' });
    expect(await tail.poll(driver.now())).toEqual([]);
  });
});
