import { job } from '@x/jobs-core';
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import { type TaskHandle, task } from './task.js';

const count = job({
  name: 'scheduler-test.count',
  input: z.object({ n: z.number() }),
  idempotencyKey: ({ n }) => `count:${n}`,
  tenant: 'none',
  run: async () => undefined,
});
const label = job({
  name: 'scheduler-test.label',
  input: z.object({ text: z.string() }),
  idempotencyKey: ({ text }) => text,
  tenant: 'none',
  run: async () => undefined,
});

// Each entry's input is checked against its own job.
expectTypeOf(
  task({
    cron: '0 3 * * *',
    tz: 'UTC',
    enqueue: () => [
      [count, { n: 1 }],
      [label, { text: 'x' }],
    ],
  }),
).toEqualTypeOf<TaskHandle>();

task({
  cron: '0 3 * * *',
  tz: 'UTC',
  // @ts-expect-error: count takes { n: number }
  enqueue: () => [[count, { text: 'x' }]],
});

task({
  cron: '0 3 * * *',
  tz: 'UTC',
  // @ts-expect-error: n must be a number
  enqueue: () => [[count, { n: 'one' }]],
});

// @ts-expect-error: tz is required by the type
task({ cron: '0 3 * * *', enqueue: () => [[count, { n: 1 }]] });

task({
  cron: '0 3 * * *',
  tz: 'UTC',
  // @ts-expect-error: catchUp is one of the three policies
  catchUp: 'latest',
  enqueue: () => [[count, { n: 1 }]],
});
