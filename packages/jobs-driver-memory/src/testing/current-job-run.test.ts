import { currentJobRun, disableCurrentJobRun, type JobRunContext, job } from '@x/jobs-core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobTestHarness, type JobTestHarness } from './index.js';

// One file of its own: disableCurrentJobRun() turns the ambient context off for the whole process,
// for good, so the "after it is disabled" case must run after every other case here.

let harness: JobTestHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const seen: { readonly before: JobRunContext | undefined; readonly after: JobRunContext | undefined }[] = [];
const failures: unknown[] = [];

/** Reads the ambient run from a helper that was handed nothing, before and after an await. */
function actorOfCurrentRun(): JobRunContext | undefined {
  return currentJobRun();
}

const ambient = job({
  name: `ambient-${Math.random().toString(36).slice(2)}`,
  input: z.object({ orgId: z.string() }),
  idempotencyKey: ({ orgId }) => orgId,
  tenant: ({ orgId }) => orgId,
  async run() {
    try {
      const before = actorOfCurrentRun();
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push({ before, after: actorOfCurrentRun() });
    } catch (error) {
      failures.push(error);
    }
  },
});

describe('currentJobRun', () => {
  it('answers the run of the body on its whole async path, and undefined outside one', async () => {
    expect(currentJobRun()).toBeUndefined();
    harness = createJobTestHarness({ jobs: [ambient] });
    const first = await harness.run(ambient, { orgId: 'org-2' });
    const second = await harness.run(ambient, { orgId: 'org-3' });
    await harness.drain();
    expect(failures).toEqual([]);
    expect(seen).toHaveLength(2);
    const byJob = new Map(seen.map((entry) => [entry.after?.jobId, entry]));
    for (const [enqueued, orgId] of [
      [first, 'org-2'],
      [second, 'org-3'],
    ] as const) {
      const entry = byJob.get(enqueued.id);
      expect(entry?.before).toBe(entry?.after);
      expect(entry?.after).toMatchObject({ jobId: enqueued.id, name: ambient.name, actor: { orgId } });
    }
    expect(currentJobRun()).toBeUndefined();
  });

  it('is X_CURRENT_RUN_DISABLED, inside a job and out, once disableCurrentJobRun() was called', async () => {
    seen.length = 0;
    disableCurrentJobRun();
    expect(() => currentJobRun()).toThrow(expect.objectContaining({ code: 'X_CURRENT_RUN_DISABLED' }));
    harness = createJobTestHarness({ jobs: [ambient] });
    await harness.run(ambient, { orgId: 'org-1' });
    await harness.drain();
    expect(failures).toEqual([expect.objectContaining({ code: 'X_CURRENT_RUN_DISABLED' })]);
    expect(seen).toEqual([]);
  });
});
