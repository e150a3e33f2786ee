import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resetJobDriver, setJobDriver } from '../ambient/driver-slot.js';
import { type JobsFacade, setJobsFacade } from '../ambient/facade.js';
import type { EnqueueRequest, EnqueueResult } from '../driver/enqueue.js';
import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';
import type { JobsError } from '../errors/jobs-error.js';
import { definitionOf, isJobHandle } from '../job/definition-of.js';
import { resetRegistry } from '../registry/process-registry.js';
import { defineJobs } from './define-jobs.js';
import { job } from './job.js';

/** A JobDriver that records what it is asked to write and dedupes live keys; nothing else. */
function recordingDriver() {
  const rows: EnqueueRequest[] = [];
  const batches: number[] = [];
  const write = (request: EnqueueRequest): EnqueueResult => {
    const live = rows.find(
      (row) =>
        row.name === request.name &&
        row.tenantId === request.tenantId &&
        row.idempotencyKey === request.idempotencyKey,
    );
    if (live !== undefined) {
      if (request.onConflict === 'error') {
        throw coreError('X_JOB_DUPLICATE', 'live duplicate', { id: live.id });
      }
      return { id: live.id, runId: live.runId, deduped: true };
    }
    rows.push(request);
    return { id: request.id, runId: request.runId, deduped: false };
  };
  const unused = () => {
    throw new Error('not used by these tests');
  };
  const driver: JobDriver = {
    name: 'recording',
    steps: { load: unused, save: unused },
    events: { publish: unused, find: unused, purgeExpired: unused },
    now: () => 1_000_000,
    enqueue: async (request) => write(request),
    enqueueMany: async (requests) => {
      batches.push(requests.length);
      return requests.map(write);
    },
    claim: unused,
    start: unused,
    ack: unused,
    nack: unused,
    heartbeat: unused,
    progress: unused,
    stats: unused,
    close: async () => {},
  };
  return { driver, rows, batches };
}

const orgInput = z.object({ orgId: z.string(), n: z.number().int().default(1) });
const base = {
  input: orgInput,
  idempotencyKey: ({ orgId }: { orgId: string }) => `k:${orgId}`,
  tenant: ({ orgId }: { orgId: string }) => orgId,
  run: async () => {},
};

afterEach(() => {
  resetRegistry();
  resetJobDriver();
  setJobsFacade(null);
});

describe('job() refuses at declaration', () => {
  it.each([
    ['a missing idempotencyKey', { ...base, idempotencyKey: undefined }, 'X_IDEMPOTENCY_REQUIRED'],
    ['a missing tenant', { ...base, tenant: undefined }, 'X_JOB_TENANT_REQUIRED'],
    ['a tenant that is neither a function nor none', { ...base, tenant: 'all' }, 'X_JOB_DECLARATION_INVALID'],
    ['input that is not a schema', { ...base, input: { orgId: 'string' } }, 'X_JOB_DECLARATION_INVALID'],
    ['attempts 0', { ...base, retry: { attempts: 0 } }, 'X_JOB_DECLARATION_INVALID'],
    ['attempts 1.5', { ...base, retry: { attempts: 1.5 } }, 'X_JOB_DECLARATION_INVALID'],
    ['an unknown backoff', { ...base, retry: { backoff: 'random' } }, 'X_JOB_DECLARATION_INVALID'],
    ['concurrency.limit 0', { ...base, concurrency: { limit: 0 } }, 'X_JOB_DECLARATION_INVALID'],
    ['a bad whenBusy', { ...base, concurrency: { limit: 1, whenBusy: 'drop' } }, 'X_JOB_DECLARATION_INVALID'],
    ['timeout 0', { ...base, timeout: 0 }, 'X_JOB_DECLARATION_INVALID'],
    ['a negative stepTimeout', { ...base, stepTimeout: -5 }, 'X_JOB_DECLARATION_INVALID'],
    ['a NaN eventPoll', { ...base, eventPoll: Number.NaN }, 'X_JOB_DECLARATION_INVALID'],
    ["an unparseable retry.delay ('3x')", { ...base, retry: { delay: '3x' } }, 'X_JOB_DECLARATION_INVALID'],
    ['a non-boolean compensates', { ...base, compensates: 'yes' }, 'X_JOB_DECLARATION_INVALID'],
    ['a fractional priority', { ...base, priority: 0.5 }, 'X_JOB_DECLARATION_INVALID'],
    ['an empty queue', { ...base, queue: '' }, 'X_JOB_DECLARATION_INVALID'],
    ['an empty name', { ...base, name: ' ' }, 'X_JOB_DECLARATION_INVALID'],
    ['a missing run', { ...base, run: undefined }, 'X_JOB_DECLARATION_INVALID'],
  ])('%s', (_label, definition, code) => {
    expect(() => job(definition as never)).toThrow(expect.objectContaining({ code: code }));
  });

  it('names the field and the problem in meta', () => {
    try {
      job({ ...base, timeout: '3x' } as never);
      expect.unreachable();
    } catch (error) {
      expect((error as JobsError).meta).toEqual({ field: 'timeout' });
    }
  });

  it('refuses a reserved step name written as a literal in run', () => {
    const definition = {
      ...base,
      run: async ({ step }: { step: { run(name: string, fn: () => number): Promise<number> } }) => {
        await step.run('unwinding', () => 1);
      },
    };
    expect(() => job(definition as never)).toThrow(
      expect.objectContaining({ code: 'X_JOB_DECLARATION_INVALID' }),
    );
  });

  it('refuses a compensate option in a job without compensates: true, and accepts it with it', () => {
    const run = async ({
      step,
    }: {
      step: { run(n: string, f: () => number, o: object): Promise<number> };
    }) => {
      await step.run('charge', () => 1, { compensate: () => undefined });
    };
    expect(() => job({ ...base, run } as never)).toThrow(
      expect.objectContaining({ code: 'X_JOB_DECLARATION_INVALID' }),
    );
    expect(() => job({ ...base, run, compensates: true } as never)).not.toThrow();
  });

  it('refuses a second definition with the same name: (X_JOB_DUPLICATE)', () => {
    job({ ...base, name: 'job-test.same-name' });
    expect(() => job({ ...base, name: 'job-test.same-name' })).toThrow(
      expect.objectContaining({ code: 'X_JOB_DUPLICATE' }),
    );
  });
});

describe('the handle', () => {
  it('lifts the declared fields, resolved, and has no .def', () => {
    const handle = job({
      ...base,
      name: 'job-test.lifted',
      queue: 'billing',
      priority: 7,
      retry: { attempts: 3, delay: '2s' },
      concurrency: { key: ({ orgId }) => orgId, limit: 2 },
      timeout: '5m',
      stepTimeout: 1500,
      eventPoll: '10s',
    });
    expect(handle.name).toBe('job-test.lifted');
    expect(handle.queue).toBe('billing');
    expect(handle.priority).toBe(7);
    expect(handle.retry).toEqual({
      attempts: 3,
      backoff: 'exponential',
      delay: 2000,
      maxDelay: 3_600_000,
      jitter: true,
    });
    expect(handle.concurrency?.limit).toBe(2);
    expect(handle.concurrency?.whenBusy).toBe('wait');
    expect(handle.timeout).toBe(300_000);
    expect(handle.stepTimeout).toBe(1500);
    expect(handle.eventPoll).toBe(10_000);
    expect(handle.tenantMode).toBe('input');
    expect(handle.compensates).toBe(false);
    expect('def' in handle).toBe(false);
    expect('run' in handle).toBe(false);
    expect(isJobHandle(handle)).toBe(true);
    expect(isJobHandle({ ...handle })).toBe(false);
    expect(definitionOf(handle).run).toBe(base.run);
  });

  it('describes itself as a manifest row', () => {
    const handle = job({
      ...base,
      tenant: 'none',
      concurrency: { limit: 1, whenBusy: 'fail' },
      rateLimit: { key: ({ orgId }) => orgId, limit: 100, per: '1m' },
      compensates: true,
    });
    expect(handle.describe()).toEqual({
      kind: 'job',
      name: handle.name,
      queue: 'default',
      priority: 0,
      retry: { attempts: 5, backoff: 'exponential', delay: 1000, maxDelay: 3_600_000, jitter: true },
      concurrency: { limit: 1, keyed: false, whenBusy: 'fail' },
      rateLimit: { limit: 100, perMs: 60_000, keyed: true },
      timeoutMs: null,
      stepTimeoutMs: null,
      eventPollMs: null,
      tenant: 'none',
      compensates: true,
    });
  });

  it('gives an unnamed job a positional anonymous-job-<n> name', () => {
    const first = job(base);
    const second = job(base);
    const n = Number(/^anonymous-job-(\d+)$/.exec(first.name)?.[1]);
    expect(second.name).toBe(`anonymous-job-${n + 1}`);
  });

  it('definitionOf refuses a value job() did not make (X_JOB_NOT_A_HANDLE)', () => {
    expect(() => definitionOf({} as never)).toThrow(expect.objectContaining({ code: 'X_JOB_NOT_A_HANDLE' }));
  });
});

let enqueueSeq = 0;
/** A definition given a durable name of its own: an enqueue needs one (X_JOB_UNNAMED otherwise). */
function named<Definition extends object>(definition: Definition): Definition & { name: string } {
  enqueueSeq += 1;
  return { ...definition, name: `job-test.enqueue-${enqueueSeq}` };
}

describe('a handle with no durable name', () => {
  it('is refused at enqueue, enqueueMany and as() with X_JOB_UNNAMED, and writes nothing', async () => {
    const { driver, rows } = recordingDriver();
    setJobDriver(driver);
    const handle = job(base);
    const unnamed = { code: 'X_JOB_UNNAMED', meta: { name: handle.name } };
    await expect(handle.enqueue({ orgId: 'org-1' })).rejects.toMatchObject(unnamed);
    await expect(handle.enqueueMany([{ orgId: 'org-1' }])).rejects.toMatchObject({ code: 'X_JOB_UNNAMED' });
    await expect(handle.as({ id: 'u', orgId: 'org-1' }, { orgId: 'org-1' })).rejects.toMatchObject(unnamed);
    expect(rows).toHaveLength(0);
  });

  it('enqueues once defineJobs stamped its export name', async () => {
    const { driver, rows } = recordingDriver();
    setJobDriver(driver);
    const stampedLater = job(base);
    defineJobs({ jobs: [{ stampedLater }] });
    await stampedLater.enqueue({ orgId: 'org-1' });
    expect(rows).toMatchObject([{ name: 'stampedLater' }]);
  });
});

describe('enqueue', () => {
  it('publishes to the ambient driver with no facade installed', async () => {
    const { driver, rows } = recordingDriver();
    setJobDriver(driver);
    const handle = job({ ...named(base), queue: 'q', priority: 3 });
    const result = await handle.enqueue({ orgId: 'org-1' });
    expect(result.deduped).toBe(false);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: result.id,
      runId: result.runId,
      name: handle.name,
      queue: 'q',
      payload: { orgId: 'org-1', n: 1 },
      tenantId: 'org-1',
      idempotencyKey: 'k:org-1',
      priority: 3,
      maxAttempts: 5,
      onConflict: 'dedupe',
      enqueuedBy: null,
    });
  });

  it('answers the live row on a duplicate and throws X_JOB_DUPLICATE under onConflict: error', async () => {
    const { driver } = recordingDriver();
    setJobDriver(driver);
    const handle = job(named(base));
    const first = await handle.enqueue({ orgId: 'org-1' });
    const second = await handle.enqueue({ orgId: 'org-1', n: 2 });
    expect(second).toEqual({ id: first.id, runId: first.runId, deduped: true });
    await expect(handle.enqueue({ orgId: 'org-1' }, { onConflict: 'error' })).rejects.toMatchObject({
      code: 'X_JOB_DUPLICATE',
    });
  });

  it('is X_DRIVER_UNAVAILABLE with neither a facade nor a driver, as a rejection', async () => {
    const handle = job(named(base));
    await expect(handle.enqueue({ orgId: 'org-1' })).rejects.toMatchObject({ code: 'X_DRIVER_UNAVAILABLE' });
  });

  it('goes through an installed facade instead of the driver', async () => {
    const { driver, rows } = recordingDriver();
    setJobDriver(driver);
    const staged: EnqueueRequest[] = [];
    const facade: JobsFacade = {
      enqueue: async (request) => {
        staged.push(request);
        return { id: request.id, runId: request.runId, deduped: false };
      },
      enqueueMany: async (requests) => requests.map((r) => ({ id: r.id, runId: r.runId, deduped: false })),
    };
    setJobsFacade(facade);
    await job(named(base)).enqueue({ orgId: 'org-1' });
    expect(staged).toHaveLength(1);
    expect(rows).toHaveLength(0);
  });

  it('rejects invalid input with X_JOB_INPUT_INVALID and writes nothing', async () => {
    const { driver, rows } = recordingDriver();
    setJobDriver(driver);
    await expect(job(named(base)).enqueue({ orgId: 42 } as never)).rejects.toMatchObject({
      code: 'X_JOB_INPUT_INVALID',
    });
    expect(rows).toHaveLength(0);
  });
});

describe('as(actor, …)', () => {
  it('records enqueuedBy, stamps the tenant, and never runs the body', async () => {
    const { driver, rows } = recordingDriver();
    setJobDriver(driver);
    let ran = 0;
    const handle = job({
      ...named(base),
      run: async () => {
        ran += 1;
      },
    });
    await handle.as({ id: 'user-9', orgId: 'org-1' }, { orgId: 'org-1' });
    expect(rows[0]).toMatchObject({ enqueuedBy: 'user-9', tenantId: 'org-1' });
    expect(ran).toBe(0);
  });

  it("refuses an actor whose org contradicts the input's tenant (X_JOB_TENANT_MISMATCH)", async () => {
    const { driver, rows } = recordingDriver();
    setJobDriver(driver);
    await expect(
      job(named(base)).as({ id: 'user-9', orgId: 'org-2' }, { orgId: 'org-1' }),
    ).rejects.toMatchObject({
      code: 'X_JOB_TENANT_MISMATCH',
    });
    expect(rows).toHaveLength(0);
  });
});

describe('enqueueMany', () => {
  it('answers in input order, one facade round trip per 1,000 inputs', async () => {
    const { driver, rows, batches } = recordingDriver();
    setJobDriver(driver);
    const handle = job(named(base));
    const inputs = Array.from({ length: 2_345 }, (_, i) => ({ orgId: `org-${i}` }));
    const results = await handle.enqueueMany(inputs);
    expect(batches).toEqual([1000, 1000, 345]);
    expect(results).toHaveLength(2_345);
    expect(results.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(rows.map((r) => r.idempotencyKey)).toEqual(inputs.map((i) => `k:${i.orgId}`));
  });

  it('dedupes a key repeated inside the batch to the first', async () => {
    const { driver } = recordingDriver();
    setJobDriver(driver);
    const [a, b] = await job(named(base)).enqueueMany([{ orgId: 'x' }, { orgId: 'x' }]);
    expect(b).toEqual({ id: a?.id, runId: a?.runId, deduped: true });
  });

  it('refuses more than 10,000 inputs before preparing any (X_JOB_ENQUEUE_BATCH_TOO_LARGE)', async () => {
    const { driver, batches } = recordingDriver();
    setJobDriver(driver);
    const inputs = Array.from({ length: 10_001 }, () => ({ orgId: 'o' }));
    await expect(job(named(base)).enqueueMany(inputs)).rejects.toMatchObject({
      code: 'X_JOB_ENQUEUE_BATCH_TOO_LARGE',
    });
    expect(batches).toEqual([]);
  });

  it("refuses onConflict: 'error' and runId in a batch (X_JOB_ENQUEUE_OPTIONS_INVALID)", async () => {
    const handle = job(named(base));
    await expect(
      handle.enqueueMany([{ orgId: 'o' }], { onConflict: 'error' } as never),
    ).rejects.toMatchObject({
      code: 'X_JOB_ENQUEUE_OPTIONS_INVALID',
    });
    await expect(handle.enqueueMany([{ orgId: 'o' }], { runId: 'r' } as never)).rejects.toMatchObject({
      code: 'X_JOB_ENQUEUE_OPTIONS_INVALID',
    });
  });

  it('writes nothing when any input is invalid, and names its index', async () => {
    const { driver, rows } = recordingDriver();
    setJobDriver(driver);
    const error = await job(named(base))
      .enqueueMany([{ orgId: 'ok' }, { orgId: 7 } as never])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'X_JOB_INPUT_INVALID', meta: { index: 1 } });
    expect(rows).toHaveLength(0);
  });

  it('answers [] for no inputs', async () => {
    expect(await job(named(base)).enqueueMany([])).toEqual([]);
  });
});
