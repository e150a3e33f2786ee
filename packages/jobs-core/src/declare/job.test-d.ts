import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { EnqueueRequest, EnqueueResult } from '../driver/enqueue.js';
import { prepareEnqueue } from '../enqueue/prepare-enqueue.js';
import type { EnqueuedJob } from '../job/enqueued-job.js';
import type { JobActor } from '../job/job-actor.js';
import type { JobRunContext } from '../job/job-context.js';
import type { EnqueueInputOf, JobHandle, JobInputOf, JobResultOf } from '../job/job-handle.js';
import type { JsonValue } from '../values/json.js';
import { job } from './job.js';

declare module '@x/jobs-core' {
  interface JobContext {
    /** Added by this type test to prove apps can augment the context. */
    readonly typeTestMailer?: { send(to: string): Promise<void> };
  }
}

const input = z.object({ orgId: z.string(), count: z.number().default(1), at: z.string().optional() });

describe('job() types', () => {
  it('requires idempotencyKey and tenant', () => {
    // @ts-expect-error idempotencyKey is required
    job({ input, tenant: 'none', run: async () => {} });
    // @ts-expect-error tenant is required
    job({ input, idempotencyKey: () => 'k', run: async () => {} });
    // @ts-expect-error tenant is a function of the input or 'none'
    job({ input, idempotencyKey: () => 'k', tenant: 'all', run: async () => {} });
  });

  it("infers the schema's output into idempotencyKey, tenant, concurrency.key and run", () => {
    job({
      input,
      idempotencyKey: (value) => {
        expectTypeOf(value).toEqualTypeOf<{ orgId: string; count: number; at?: string | undefined }>();
        return value.orgId;
      },
      tenant: (value) => {
        expectTypeOf(value.count).toEqualTypeOf<number>();
        return value.orgId;
      },
      concurrency: {
        limit: 1,
        key: (value) => {
          expectTypeOf(value.orgId).toEqualTypeOf<string>();
          return value.orgId;
        },
      },
      async run({ input: value, ctx, finalAttempt, progress }) {
        expectTypeOf(value.orgId).toEqualTypeOf<string>();
        expectTypeOf(ctx).toEqualTypeOf<JobRunContext>();
        expectTypeOf(ctx.actor).toEqualTypeOf<JobActor>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        expectTypeOf(ctx.typeTestMailer).toEqualTypeOf<{ send(to: string): Promise<void> } | undefined>();
        expectTypeOf(finalAttempt).toEqualTypeOf<boolean>();
        expectTypeOf(progress).toEqualTypeOf<(current: number, total?: number) => void>();
      },
    });
  });

  it("types enqueue with the schema's input and answers EnqueueResult with result()", () => {
    const handle = job({
      input,
      idempotencyKey: (v) => v.orgId,
      tenant: (v) => v.orgId,
      run: async () => {},
    });
    expectTypeOf(handle.enqueue({ orgId: 'o' })).toEqualTypeOf<Promise<EnqueuedJob<void>>>();
    expectTypeOf<EnqueuedJob<void>>().toExtend<EnqueueResult>();
    const counted = job({
      input,
      idempotencyKey: (v) => v.orgId,
      tenant: (v) => v.orgId,
      run: async () => ({ at: new Date(0), n: 1 }),
    });
    expectTypeOf(counted.enqueue({ orgId: 'o' }).then((r) => r.result())).toEqualTypeOf<
      Promise<{ at: string; n: number }>
    >();
    expectTypeOf<EnqueueInputOf<typeof handle>>().toEqualTypeOf<z.input<typeof input>>();
    expectTypeOf<JobInputOf<typeof handle>>().toEqualTypeOf<z.output<typeof input>>();
    // @ts-expect-error orgId must be a string
    handle.enqueue({ orgId: 1 });
    // @ts-expect-error orgId is required
    handle.enqueue({ count: 2 });
    handle.enqueueMany([{ orgId: 'a' }, { orgId: 'b', count: 3 }]);
    // @ts-expect-error onConflict is not a batch option
    handle.enqueueMany([{ orgId: 'a' }], { onConflict: 'error' });
    handle.as({ id: 'u', orgId: null }, { orgId: 'o' }, { delay: '5m' });
    // @ts-expect-error an actor has an id and an orgId
    handle.as({ id: 'u' }, { orgId: 'o' });
    expectTypeOf(prepareEnqueue(handle, { orgId: 'o' })).toEqualTypeOf<EnqueueRequest>();
    // @ts-expect-error prepareEnqueue takes the handle's enqueue input
    prepareEnqueue(handle, { orgId: 1 });
  });

  it('has no .def and no callable run', () => {
    const handle = job({ input, idempotencyKey: (v) => v.orgId, tenant: 'none', run: async () => {} });
    // @ts-expect-error a handle has no .def
    handle.def;
    // @ts-expect-error run is not on the handle
    handle.run;
    expectTypeOf(handle.timeout).toEqualTypeOf<number | undefined>();
    expectTypeOf(handle.name).toEqualTypeOf<string>();
  });

  it("infers the result from run into onSettled and the handle's type", () => {
    const handle = job({
      input,
      idempotencyKey: (v) => v.orgId,
      tenant: 'none',
      async run() {
        return { rows: 3, at: new Date() };
      },
      onSettled(settled) {
        if (settled.outcome === 'completed') {
          expectTypeOf(settled.result).toEqualTypeOf<{ rows: number; at: string }>();
          expectTypeOf(settled.input.orgId).toEqualTypeOf<string>();
          expectTypeOf(settled.code).toEqualTypeOf<null>();
        } else {
          expectTypeOf(settled.input).toEqualTypeOf<z.output<typeof input> | undefined>();
        }
      },
    });
    expectTypeOf<JobResultOf<typeof handle>>().toEqualTypeOf<{ rows: number; at: Date }>();
    expectTypeOf(handle).toExtend<
      JobHandle<z.output<typeof input>, { rows: number; at: Date }, z.input<typeof input>>
    >();
  });
});

describe('step types', () => {
  it('answers the JSON form of a step output and types waitForEvent by its schema', () => {
    job({
      input,
      idempotencyKey: (v) => v.orgId,
      tenant: 'none',
      async run({ step }) {
        const out = await step.run('load', async (signal) => {
          expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
          return { when: new Date(), big: undefined, list: [1, 2] };
        });
        expectTypeOf(out).toEqualTypeOf<{ when: string; list: number[] }>();
        const nothing = await step.run('void', () => {});
        expectTypeOf(nothing).toEqualTypeOf<null>();
        const unknownOut = await step.run('any', (): unknown => 1);
        expectTypeOf(unknownOut).toEqualTypeOf<JsonValue>();
        const paid = await step.waitForEvent('paid', 'invoice.paid', {
          schema: z.object({ invoiceId: z.string() }),
          match: { orgId: 'o' },
          timeout: '3d',
        });
        expectTypeOf(paid).toEqualTypeOf<{ invoiceId: string } | null>();
        await step.sleep('3d');
        await step.sleep('cool-off', 5_000);
        await step.sleepUntil('renewal', new Date());
        await step.run('once', () => 1, { once: true, timeout: '10s' });
      },
    });
  });

  it('refuses reserved step names where the compiler sees them', () => {
    job({
      input,
      idempotencyKey: (v) => v.orgId,
      tenant: 'none',
      async run({ step }) {
        // @ts-expect-error 'unwinding' is reserved
        await step.run('unwinding', () => 1);
        // @ts-expect-error compensate:* is reserved
        await step.sleep('compensate:charge', '1s');
        // @ts-expect-error compensate:* is reserved
        await step.waitForEvent('compensate:x', 'e', { schema: z.string(), timeout: '1m' });
        const dynamic: string = 'chosen-at-run-time';
        await step.run(dynamic, () => 1);
      },
    });
  });

  it('allows compensate only with compensates: true, typed by the step output', () => {
    job({
      input,
      idempotencyKey: (v) => v.orgId,
      tenant: 'none',
      async run({ step }) {
        // @ts-expect-error compensate needs compensates: true
        await step.run('charge', async () => ({ id: 'c1' }), { compensate: () => undefined });
      },
    });
    job({
      input,
      idempotencyKey: (v) => v.orgId,
      tenant: 'none',
      compensates: true,
      async run({ step }) {
        await step.run('charge', async () => ({ id: 'c1', at: new Date() }), {
          compensate: (charge, { signal }) => {
            expectTypeOf(charge).toEqualTypeOf<{ id: string; at: string }>();
            expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
          },
        });
      },
    });
  });
});
