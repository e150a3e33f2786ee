import { job } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enqueue, installed, start, unique, until } from '../../test/worker-lifecycle-fixtures.js';
import { memoryJobDriver } from '../memory-job-driver.js';

describe('a worker on a fair queue', () => {
  it("with concurrency 1 and prefetch 0 runs a newcomer's first row next, then alternates tenants", async () => {
    const queue = unique('fair');
    const driver = installed(memoryJobDriver({ queues: { [queue]: { fairness: 'tenant' } } }));
    const ran: string[] = [];
    let gate: (() => void) | undefined;
    const tenantJob = job({
      name: unique('tenant-job'),
      queue,
      input: z.object({ org: z.string(), n: z.number() }),
      idempotencyKey: ({ org, n }) => `${org}-${n}`,
      tenant: ({ org }) => org,
      async run({ input }) {
        ran.push(input.org);
        // The fifth row of A holds the worker while B's rows arrive.
        if (ran.length === 5) await new Promise<void>((resolve) => (gate = resolve));
      },
    });
    for (let n = 0; n < 40; n += 1) await enqueue(tenantJob, { org: 'A', n });
    const { worker } = start(driver, [tenantJob], { concurrency: 1, prefetch: 0 });
    await worker.start();
    await until(() => gate !== undefined);
    for (let n = 0; n < 3; n += 1) await enqueue(tenantJob, { org: 'B', n });
    gate?.();
    await until(() => ran.length === 43, 15_000);
    expect(ran.slice(0, 12).join('')).toBe('AAAAABABABAA');
  });
});
