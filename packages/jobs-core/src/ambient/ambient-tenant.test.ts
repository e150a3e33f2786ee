import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { job } from '../declare/job.js';
import type { EnqueueRequest } from '../driver/enqueue.js';
import { isJobsError } from '../errors/jobs-error.js';
import type { JobRunContext } from '../job/job-context.js';
import { crossTenant } from '../values/cross-tenant.js';
import { resetJobDriver } from './driver-slot.js';
import { setJobsFacade } from './facade.js';
import { withJobRun } from './job-run-storage.js';

const staged: EnqueueRequest[] = [];
const invoice = job({
  name: `ambient-tenant.invoice-${Math.random()}`,
  input: z.object({ orgId: z.string(), n: z.number() }),
  idempotencyKey: ({ orgId, n }) => `${orgId}:${n}`,
  tenant: ({ orgId }) => orgId,
  run: async () => {},
});
const housekeeping = job({
  name: `ambient-tenant.housekeeping-${Math.random()}`,
  input: z.object({ day: z.string() }),
  idempotencyKey: ({ day }) => day,
  tenant: 'none',
  run: async () => {},
});

function runFor(orgId: string | null): JobRunContext {
  return {
    signal: new AbortController().signal,
    actor: { id: 'job:parent', orgId },
    jobId: 'job-1',
    runId: 'run-1',
    name: 'parent',
    attempt: 1,
  } as JobRunContext;
}

async function codeOf(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
  } catch (error) {
    return isJobsError(error) ? error.code : 'not-a-jobs-error';
  }
  return undefined;
}

beforeEach(() => {
  staged.length = 0;
  setJobsFacade({
    enqueue: async (request: EnqueueRequest) => {
      staged.push(request);
      return { id: request.id, runId: request.runId, deduped: false };
    },
    enqueueMany: async (requests: readonly EnqueueRequest[]) => {
      staged.push(...requests);
      return requests.map((r: EnqueueRequest) => ({ id: r.id, runId: r.runId, deduped: false }));
    },
  } as never);
});
afterEach(() => {
  setJobsFacade(null);
  resetJobDriver();
});

describe('the ambient tenant', () => {
  it('refuses enqueue, enqueueMany and .as() naming another org from inside a run, staging nothing', async () => {
    await withJobRun(runFor('org-b'), async () => {
      expect(await codeOf(() => invoice.enqueue({ orgId: 'org-a', n: 1 }))).toBe('X_JOB_TENANT_MISMATCH');
      expect(
        await codeOf(() =>
          invoice.enqueueMany([
            { orgId: 'org-b', n: 1 },
            { orgId: 'org-a', n: 2 },
          ]),
        ),
      ).toBe('X_JOB_TENANT_MISMATCH');
      expect(await codeOf(() => invoice.as({ id: 'user-1', orgId: 'org-a' }, { orgId: 'org-a', n: 3 }))).toBe(
        'X_JOB_TENANT_MISMATCH',
      );
    });
    expect(staged).toEqual([]);
  });
  it("admits the run's own tenant, jobs of no tenant, and runs of no tenant", async () => {
    await withJobRun(runFor('org-b'), async () => {
      await invoice.enqueue({ orgId: 'org-b', n: 1 });
      await housekeeping.enqueue({ day: '2026-12-01' });
    });
    await withJobRun(runFor(null), () => invoice.enqueue({ orgId: 'org-a', n: 2 }));
    await invoice.enqueue({ orgId: 'org-a', n: 3 });
    expect(staged.map((r) => r.tenantId)).toEqual(['org-b', null, 'org-a', 'org-a']);
  });
  it('crossTenant(reason, fn) lifts the ambient check, and only that one', async () => {
    await withJobRun(runFor('org-b'), () =>
      crossTenant('fan-out across orgs', async () => {
        await invoice.enqueueMany([
          { orgId: 'org-a', n: 1 },
          { orgId: 'org-c', n: 2 },
        ]);
        expect(
          await codeOf(() => invoice.enqueue({ orgId: 'org-a', n: 3 }, { tenantId: 'org-b' })),
          'an explicit tenantId that contradicts the payload',
        ).toBe('X_JOB_TENANT_MISMATCH');
        expect(
          await codeOf(() => invoice.as({ id: 'u', orgId: 'org-b' }, { orgId: 'org-a', n: 4 })),
          'an actor that contradicts the payload',
        ).toBe('X_JOB_TENANT_MISMATCH');
      }),
    );
    expect(staged.map((r) => r.tenantId)).toEqual(['org-a', 'org-c']);
  });
  it('crossTenant needs a reason', () => {
    for (const reason of ['', '  ', undefined]) {
      try {
        crossTenant(reason as never, () => 1);
        expect.unreachable();
      } catch (error) {
        expect(isJobsError(error, 'X_JOB_ENQUEUE_OPTIONS_INVALID')).toBe(true);
      }
    }
  });
});
