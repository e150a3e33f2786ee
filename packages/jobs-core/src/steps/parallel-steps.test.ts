import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne } from '../../test/run-one.js';
import { job } from '../declare/job.js';
import type { RunArgs } from '../job/run-args.js';

/** Resolves after `ms` — only to make parallel steps finish in a chosen order, never to synchronise. */
const after = <T>(ms: number, value: T): Promise<T> =>
  new Promise((resolve) => setTimeout(() => resolve(value), ms));

function parallel(run: (args: RunArgs<Record<string, never>>) => Promise<unknown>) {
  return job({
    name: `parallel-${Math.random().toString(36).slice(2)}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    retry: { attempts: 5, delay: 1, jitter: false },
    run: run as never,
  });
}

describe('parallel steps (Promise.all over step calls)', () => {
  it('records positions in call order whatever order they finish in, and replays none of them', async () => {
    const fake = new FakeJobDriver();
    const executed: string[] = [];
    let failLast = true;
    const handle = parallel(async ({ step }) => {
      const outputs = await Promise.all(
        (['a', 'b', 'c'] as const).map((name, i) =>
          step.run(name, () => {
            executed.push(name);
            return after(30 * (3 - i), `${name}!`);
          }),
        ),
      );
      await step.run('last', () => {
        if (failLast) throw new Error('not yet');
        return 'done';
      });
      return outputs;
    });
    const row = fake.add({ name: handle.name });
    expect((await runOne(fake, handle).result).outcome).toBe('retried');
    expect(executed).toEqual(['a', 'b', 'c']);
    const steps = fake.steps.get(row.runId)!;
    const completed = steps
      .filter((s) => s.status === 'completed')
      .sort((x, y) => x.completedAt! - y.completedAt!);
    expect(
      completed.map((s) => s.name),
      'finished in reverse',
    ).toEqual(['c', 'b', 'a']);
    expect(Object.fromEntries(steps.map((s) => [s.name, s.position]))).toEqual({ a: 0, b: 1, c: 2, last: 3 });

    failLast = false;
    row.runAt = Date.now();
    expect((await runOne(fake, handle).result).outcome).toBe('completed');
    expect(executed, 'the replay answered a, b and c from storage').toEqual(['a', 'b', 'c']);
    expect(row.result).toEqual(['a!', 'b!', 'c!']);
  });

  it('lets a slow sibling finish and save before the run parks on a parallel sleep', async () => {
    const fake = new FakeJobDriver();
    let slowRuns = 0;
    const handle = parallel(async ({ step }) => {
      const [, slow] = await Promise.all([
        step.sleep('nap', '1h'),
        step.run('slow', () => {
          slowRuns += 1;
          return after(50, 'slow!');
        }),
      ]);
      return slow;
    });
    const row = fake.add({ name: handle.name });
    expect((await runOne(fake, handle).result).outcome).toBe('suspended');
    expect(fake.steps.get(row.runId)?.find((s) => s.name === 'slow')).toMatchObject({
      status: 'completed',
      output: 'slow!',
    });
    expect(row.runAt).toBeGreaterThan(Date.now() + 3_000_000);
    await fake.driver.introspect?.promote(row.id);
    expect((await runOne(fake, handle).result).outcome).toBe('completed');
    expect(slowRuns).toBe(1);
    expect(row.result).toBe('slow!');
  });

  it('parks several parallel suspensions until the earliest wake time', async () => {
    const fake = new FakeJobDriver();
    const handle = parallel(async ({ step }) => {
      await Promise.all([step.sleep('long', '3h'), step.sleep('short', '1h'), step.sleep('mid', '2h')]);
    });
    const row = fake.add({ name: handle.name });
    const before = Date.now();
    expect((await runOne(fake, handle).result).outcome).toBe('suspended');
    expect(row.runAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(row.runAt).toBeLessThan(before + 2 * 3_600_000);
  });

  it('fails the attempt with the first failure once the siblings in flight saved their outputs', async () => {
    const fake = new FakeJobDriver();
    const executed: string[] = [];
    let fail = true;
    const handle = parallel(async ({ step }) => {
      return Promise.all([
        step.run('breaks', () => {
          executed.push('breaks');
          if (fail) throw new Error('boom');
          return 1;
        }),
        step.run('steady', () => {
          executed.push('steady');
          return after(40, 2);
        }),
      ]);
    });
    const row = fake.add({ name: handle.name });
    expect((await runOne(fake, handle).result).outcome).toBe('retried');
    expect(fake.steps.get(row.runId)?.find((s) => s.name === 'steady')?.status).toBe('completed');
    fail = false;
    row.runAt = Date.now();
    expect((await runOne(fake, handle).result).outcome).toBe('completed');
    expect(executed).toEqual(['breaks', 'steady', 'breaks']);
    expect(row.result).toEqual([1, 2]);
  });

  it('refuses the later of two parallel steps with one name (X_STEP_DUPLICATE, terminal)', async () => {
    const fake = new FakeJobDriver();
    const executed: string[] = [];
    const handle = parallel(async ({ step }) => {
      const results = await Promise.allSettled([
        step.run('same', () => executed.push('first')),
        step.run('same', () => executed.push('second')),
      ]);
      const refused = results[1];
      throw refused?.status === 'rejected' ? refused.reason : new Error('no refusal');
    });
    fake.add({ name: handle.name });
    const result = await runOne(fake, handle).result;
    expect(result).toEqual({ outcome: 'dead', code: 'X_STEP_DUPLICATE' });
    expect(executed).toEqual(['first']);
  });
});
