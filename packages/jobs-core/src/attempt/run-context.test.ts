import { describe, expect, it } from 'vitest';
import type { ClaimedJob } from '../driver/claim.js';
import type { JobContext } from '../job/job-context.js';
import { LazyAbort } from '../steps/lazy-abort.js';
import { runContext } from './run-context.js';

const job = {
  id: 'job-1',
  runId: 'run-1',
  name: 'mail.send',
  queue: 'default',
  tenantId: 'org-7',
  attempt: 2,
} as ClaimedJob;

describe('runContext: ctx is a plain-looking object with the run fields after the app members', () => {
  it('has the own enumerable keys of { ...app, signal, actor, jobId, runId, name, attempt }, the run fields winning', () => {
    const tag = Symbol('tag');
    const app = { mail: 'mailer', jobId: 'app-value', [tag]: 1 } as unknown as JobContext;
    const ctx = runContext(app, new LazyAbort(), job) as unknown as Record<string | symbol, unknown>;
    expect(Object.keys(ctx)).toEqual(['mail', 'jobId', 'signal', 'actor', 'runId', 'name', 'attempt']);
    expect(ctx[tag]).toBe(1);
    expect(ctx.jobId).toBe('job-1');
    expect(ctx.actor).toEqual({ id: 'job:mail.send', orgId: 'org-7' });
    expect({ runId: ctx.runId, name: ctx.name, attempt: ctx.attempt }).toEqual({
      runId: 'run-1',
      name: 'mail.send',
      attempt: 2,
    });
  });

  it('creates the signal only when read, aborts it with the attempt, and a spread copy carries it', () => {
    const abort = new LazyAbort();
    const ctx = runContext({}, abort, job);
    const copy = { ...ctx };
    expect(copy.signal).toBeInstanceOf(AbortSignal);
    expect(copy.signal).toBe(ctx.signal);
    abort.abort(new Error('stop'));
    expect(ctx.signal.aborted).toBe(true);
    expect((ctx.signal.reason as Error).message).toBe('stop');
  });

  it('answers an already aborted signal when the abort came before the first read', () => {
    const abort = new LazyAbort();
    abort.abort('drained');
    const ctx = runContext({}, abort, job);
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe('drained');
  });
});
