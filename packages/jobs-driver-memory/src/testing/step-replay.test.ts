import { defineJobs, job, resetRegistry } from '@x/jobs-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createJobTestHarness, type JobTestHarness } from './index.js';

declare module '@x/jobs-core' {
  interface JobContext {
    readonly calls?: string[];
    readonly failOnce?: Set<string>;
  }
}

let harness: JobTestHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  resetRegistry();
});

/** The onboarding flow of DESIGN.md §2, with fakes that record calls and fail a step once. */
function onboardingJob() {
  return job({
    name: `onboard-${Math.random().toString(36).slice(2)}`,
    input: z.object({ orgId: z.string() }),
    idempotencyKey: ({ orgId }) => `onboard:${orgId}`,
    tenant: ({ orgId }) => orgId,
    retry: { attempts: 5, backoff: 'exponential', delay: 1000 },
    async run({ input, step, ctx }) {
      const org = await step.run('provision', () => {
        ctx.calls?.push('provision');
        return { id: input.orgId, createdAt: new Date(0) };
      });
      await step.run('welcome-email', () => {
        ctx.calls?.push('welcome-email');
        if (ctx.failOnce?.delete('welcome-email')) throw new Error('smtp down');
        return `sent to ${org.id}`;
      });
      await step.sleep('3d');
      await step.run('nudge', () => {
        ctx.calls?.push('nudge');
        return org.createdAt;
      });
      return { org: org.id, actor: ctx.actor.orgId };
    },
  });
}

describe('durable step replay (onboarding flow)', () => {
  it('retries only the failed step, and resumes the 3-day sleep only once the clock passes it', async () => {
    const onboard = onboardingJob();
    const calls: string[] = [];
    const failOnce = new Set(['welcome-email']);
    harness = createJobTestHarness({ jobs: [onboard], context: () => ({ calls, failOnce }) });
    const { id } = await harness.run(onboard, { orgId: 'org-1' });

    await harness.drain();
    expect(calls).toEqual(['provision', 'welcome-email', 'welcome-email']);
    const parked = await harness.job(id);
    expect(parked?.state).toBe('suspended');
    expect(parked?.attempts).toBe(1); // the failure counted one attempt; the suspension none

    harness.clock.advance('2d');
    await harness.drain();
    expect(calls).not.toContain('nudge');

    harness.clock.advance('1d');
    const trace = await harness.drain();
    expect(calls).toEqual(['provision', 'welcome-email', 'welcome-email', 'nudge']);
    expect(trace.steps.provision).toEqual({ executions: 1, replays: 2 });
    expect(trace.steps['welcome-email']?.executions).toBe(2);
    expect(trace.steps.nudge?.executions).toBe(1);

    const done = await harness.job(id);
    expect(done?.state).toBe('done');
    expect(done?.result).toEqual({ org: 'org-1', actor: 'org-1' });
    const provision = done?.steps.find((s) => s.name === 'provision');
    // The JSON form is what was persisted and what was answered: the Date is its ISO string.
    expect(provision?.output).toEqual({ id: 'org-1', createdAt: '1970-01-01T00:00:00.000Z' });
    expect(done?.steps.map((s) => s.name)).toEqual(['provision', 'welcome-email', 'sleep:3d', 'nudge']);
  });

  it('answers the JSON form on the first run and on replay alike', async () => {
    const seen: unknown[] = [];
    const shape = job({
      name: 'json-form',
      input: z.object({}),
      idempotencyKey: () => 'json-form',
      tenant: 'none',
      async run({ step }) {
        seen.push(await step.run('date', () => new Date(Date.UTC(2026, 0, 2))));
        seen.push(await step.run('nothing', () => undefined));
        seen.push(await step.run('object', () => ({ keep: 1, drop: undefined, fn: () => 1 })));
        await step.sleep('wait', '1s');
      },
    });
    harness = createJobTestHarness({ jobs: [shape] });
    await harness.run(shape, {});
    await harness.drain();
    harness.clock.advance('1s');
    await harness.drain();
    const first = ['2026-01-02T00:00:00.000Z', null, { keep: 1 }];
    expect(seen).toEqual([...first, ...first]);
  });

  it('dead-letters a step whose value JSON cannot hold, terminally, on the first attempt', async () => {
    const big = job({
      name: 'bigint-step',
      input: z.object({}),
      idempotencyKey: () => 'bigint',
      tenant: 'none',
      retry: { attempts: 5 },
      async run({ step }) {
        await step.run('count', () => 10n as unknown as number);
      },
    });
    harness = createJobTestHarness({ jobs: [big] });
    const { id } = await harness.run(big, {});
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.state).toBe('dead');
    expect(row?.stopReason).toBe('terminal');
    expect(row?.lastError?.code).toBe('X_STEP_OUTPUT_UNSERIALIZABLE');
    expect(row?.attempts).toBe(1);
  });

  it('refuses a step name used twice in one run with X_STEP_DUPLICATE', async () => {
    const twice = job({
      name: 'twice',
      input: z.object({}),
      idempotencyKey: () => 'twice',
      tenant: 'none',
      retry: { attempts: 1 },
      async run({ step }) {
        await step.run('same', () => 1);
        await step.run('same', () => 2);
      },
    });
    harness = createJobTestHarness({ jobs: [twice] });
    const { id } = await harness.run(twice, {});
    await harness.drain();
    expect((await harness.job(id))?.lastError?.code).toBe('X_STEP_DUPLICATE');
  });

  it('runs the body under the declared tenant, and with no org for tenant: none', async () => {
    const orgs: (string | null)[] = [];
    const scoped = job({
      name: 'scoped',
      input: z.object({ orgId: z.string() }),
      idempotencyKey: ({ orgId }) => orgId,
      tenant: ({ orgId }) => orgId,
      run: ({ ctx }) => {
        orgs.push(ctx.actor.orgId);
      },
    });
    const global = job({
      name: 'global',
      input: z.object({}),
      idempotencyKey: () => 'g',
      tenant: 'none',
      run: ({ ctx }) => {
        orgs.push(ctx.actor.orgId);
      },
    });
    harness = createJobTestHarness({ jobs: [scoped, global] });
    await harness.run(scoped, { orgId: 'acme' });
    await harness.drain();
    await harness.run(global, {});
    await harness.drain();
    expect(orgs).toEqual(['acme', null]);
  });

  it('reports progress on the row and calls onSettled once with the typed result', async () => {
    const settled: unknown[] = [];
    const counted = job({
      name: 'progress',
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => `p${n}`,
      tenant: 'none',
      run: ({ input, progress }) => {
        for (let i = 1; i <= input.n; i += 1) progress(i, input.n);
        return { rows: input.n };
      },
      onSettled: (s) => {
        settled.push({ outcome: s.outcome, result: s.result, code: s.code });
      },
    });
    harness = createJobTestHarness({ jobs: [counted] });
    const { id } = await harness.run(counted, { n: 5 });
    await harness.drain();
    expect((await harness.job(id))?.progress).toEqual({ current: 5, total: 5 });
    expect(settled).toEqual([{ outcome: 'completed', result: { rows: 5 }, code: null }]);
  });

  it('fails the attempt when building ctx throws, and dead-letters it once attempts run out', async () => {
    const settled: string[] = [];
    const needsDb = job({
      name: 'needs-db',
      input: z.object({}),
      idempotencyKey: () => 'needs-db',
      tenant: 'none',
      retry: { attempts: 2, delay: 1000 },
      run: () => 'never',
      onSettled: (s) => void settled.push(`${s.outcome} ${s.code}`),
    });
    harness = createJobTestHarness({
      jobs: [needsDb],
      context: () => {
        throw new Error('no database');
      },
    });
    const { id } = await harness.run(needsDb, {});
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.state).toBe('dead');
    expect(row?.attempts).toBe(2);
    expect(row?.stopReason).toBe('attempts-exhausted');
    expect(row?.lastError?.message).toBe('no database');
    expect(settled).toEqual(['failed ERROR']);
  });

  it('bounds one step with stepTimeout: aborts its signal, fails the attempt, and retries that step only', async () => {
    const calls: string[] = [];
    let stepReason: unknown;
    const bounded = job({
      name: 'bounded',
      input: z.object({}),
      idempotencyKey: () => 'bounded',
      tenant: 'none',
      stepTimeout: 20,
      retry: { attempts: 2, delay: 1000 },
      async run({ step }) {
        await step.run('fast', () => void calls.push('fast'));
        await step.run('slow', (signal) => {
          calls.push('slow');
          if (calls.filter((call) => call === 'slow').length > 1) return 'ok';
          return new Promise<never>((_, reject) =>
            signal.addEventListener('abort', () => {
              stepReason = signal.reason;
              reject(new Error('gave up'));
            }),
          );
        });
      },
    });
    harness = createJobTestHarness({ jobs: [bounded] });
    const { id } = await harness.run(bounded, {});
    await harness.drain();
    expect((stepReason as { code?: string }).code).toBe('X_JOB_TIMEOUT');
    expect(calls).toEqual(['fast', 'slow', 'slow']);
    const row = await harness.job(id);
    expect(row?.state).toBe('done');
    expect(row?.attempts).toBe(2);
  });

  it('does not count a step refused after the abort as an execution in the trace', async () => {
    const calls: string[] = [];
    let refused: unknown;
    const late = job({
      name: 'late-step',
      input: z.object({}),
      idempotencyKey: () => 'late-step',
      tenant: 'none',
      timeout: 20,
      retry: { attempts: 1 },
      async run({ step, ctx }) {
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        try {
          await step.run('after-abort', () => void calls.push('after-abort'));
        } catch (error) {
          refused = error;
        }
      },
    });
    harness = createJobTestHarness({ jobs: [late] });
    await harness.run(late, {});
    await harness.drain();
    await vi.waitFor(() => expect(refused).toBeDefined());
    expect((refused as { code?: string }).code).toBe('X_ABORTED');
    expect(calls).toEqual([]);
    expect(harness.trace.steps['after-abort']?.executions ?? 0).toBe(0);
  });

  it('runs jobs that a registry names, via defineJobs and the process registry', async () => {
    const ran: string[] = [];
    const mod = {
      registered: job({
        input: z.object({}),
        idempotencyKey: () => 'r',
        tenant: 'none',
        run: () => {
          ran.push('registered');
        },
      }),
    };
    defineJobs({ jobs: [mod] });
    expect(mod.registered.name).toBe('registered');
    harness = createJobTestHarness({ jobs: [mod.registered] });
    await harness.run(mod.registered, {});
    await harness.drain();
    expect(ran).toEqual(['registered']);
  });
});

describe('a final attempt whose lease lapsed', () => {
  it('is dead-lettered X_JOB_MAX_ATTEMPTS on redelivery without running the body again', async () => {
    let calls = 0;
    const once = job({
      name: 'lapses',
      input: z.object({}),
      idempotencyKey: () => 'lapses',
      tenant: 'none',
      retry: { attempts: 1 },
      run: () => {
        calls += 1;
      },
    });
    harness = createJobTestHarness({ jobs: [once] });
    const { id } = await harness.run(once, {});
    // A worker claims it, starts attempt 1 and dies: the start counted it, and its lease lapses.
    const [claimed] = await harness.driver.claim({
      queues: ['default'],
      limit: 1,
      workerId: 'dead-worker',
      visibilityTimeoutMs: 1_000,
    });
    expect(await harness.driver.start(claimed!.id, claimed!.claim, 1_000)).toBe(true);
    harness.clock.advance('2s');
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.state).toBe('dead');
    expect(row?.lastError?.code).toBe('X_JOB_MAX_ATTEMPTS');
    expect(row?.stopReason).toBe('attempts-exhausted');
    expect(calls).toBe(0);
  });
});
