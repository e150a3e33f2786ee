import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REGISTRABLE, type Registrable } from '../job/registrable.js';
import { inspectManifest, jobRegistry, resetRegistry } from '../registry/process-registry.js';
import { defineJobs } from './define-jobs.js';
import { job } from './job.js';

const makeJob = (name?: string) =>
  job({
    ...(name === undefined ? {} : { name }),
    input: z.object({ id: z.string() }),
    idempotencyKey: ({ id }) => id,
    tenant: 'none',
    run: async () => {},
  });

/** A minimal task handle, as @x/jobs-scheduler's task() implements the protocol. */
function makeTask(declaredName?: string): Registrable {
  let name = declaredName ?? 'anonymous-task-x';
  return {
    get name() {
      return name;
    },
    describe: () => ({ kind: 'task', name, cron: '0 3 * * *' }),
    [REGISTRABLE]: {
      kind: 'task',
      declaredName,
      stampName: (stamped: string) => {
        name = stamped;
      },
    },
  };
}

/** A module namespace: a null-prototype object of exports, tagged 'Module'. */
const namespace = (exports: Record<string, unknown>): object =>
  Object.freeze(Object.assign(Object.create(null), exports, { [Symbol.toStringTag]: 'Module' }));

beforeEach(() => resetRegistry());

describe('defineJobs', () => {
  it('stamps export names in place and registers jobs and tasks', () => {
    const sendDigest = makeJob();
    const nightly = makeTask();
    const registry = defineJobs({
      jobs: [namespace({ sendDigest, notAHandle: 42, helper: () => 1 })],
      tasks: [namespace({ nightly })],
    });
    expect(sendDigest.name).toBe('sendDigest');
    expect(nightly.name).toBe('nightly');
    expect(registry.get('sendDigest')).toBe(sendDigest);
    expect(registry.jobs()).toEqual([sendDigest]);
    expect(registry.tasks()).toEqual([nightly]);
    expect(registry.manifest().jobs.map((row) => row.name)).toEqual(['sendDigest']);
    expect(registry.manifest().tasks).toEqual([{ kind: 'task', name: 'nightly', cron: '0 3 * * *' }]);
  });

  it('keeps a declared name: over the export name', () => {
    const renamedExport = makeJob('define-jobs.durable-key');
    defineJobs({ jobs: [namespace({ renamedExport })] });
    expect(renamedExport.name).toBe('define-jobs.durable-key');
    expect(jobRegistry().get('define-jobs.durable-key')).toBe(renamedExport);
  });

  it('leaves an unregistered job its anonymous-job-<n> name', () => {
    expect(makeJob().name).toMatch(/^anonymous-job-\d+$/);
  });

  it('treats the same handle seen twice under one name as one registration', () => {
    const notify = makeJob();
    const a = namespace({ notify });
    defineJobs({ jobs: [a, namespace({ notify })] });
    defineJobs({ jobs: [a] });
    expect(jobRegistry().jobs()).toEqual([notify]);
  });

  it('refuses two different handles under one export name (X_JOB_DUPLICATE)', () => {
    defineJobs({ jobs: [namespace({ notify: makeJob() })] });
    expect(() => defineJobs({ jobs: [namespace({ notify: makeJob() })] })).toThrow(
      expect.objectContaining({ code: 'X_JOB_DUPLICATE' }),
    );
  });

  it('refuses one handle exported under two names (X_JOB_DUPLICATE), stamping nothing', () => {
    const notify = makeJob();
    const before = notify.name;
    expect(() => defineJobs({ jobs: [namespace({ a: notify, b: notify })] })).toThrow(
      expect.objectContaining({ code: 'X_JOB_DUPLICATE' }),
    );
    expect(notify.name).toBe(before);
    expect(jobRegistry().jobs()).toEqual([]);
  });

  it('refuses a later alias of an already registered handle (X_JOB_DUPLICATE)', () => {
    const notify = makeJob();
    defineJobs({ jobs: [namespace({ notify })] });
    expect(() => defineJobs({ jobs: [namespace({ alias: notify })] })).toThrow(
      expect.objectContaining({ code: 'X_JOB_DUPLICATE' }),
    );
    expect(notify.name).toBe('notify');
  });

  it('refuses an export name that a declared name already holds (X_JOB_DUPLICATE)', () => {
    defineJobs({ jobs: [namespace({ x: makeJob('define-jobs.taken') })] });
    expect(() => defineJobs({ jobs: [namespace({ 'define-jobs.taken': makeJob() })] })).toThrow(
      expect.objectContaining({ code: 'X_JOB_DUPLICATE' }),
    );
  });

  it.each([
    ['a task listed under jobs', () => ({ jobs: [namespace({ t: makeTask() })] })],
    ['a job listed under tasks', () => ({ tasks: [namespace({ j: makeJob() })] })],
    ['a handle instead of its module', () => ({ jobs: [makeJob()] })],
    ['a default-exported handle', () => ({ jobs: [namespace({ default: makeJob() })] })],
    ['a non-array list', () => ({ jobs: namespace({}) })],
  ])('refuses %s (X_JOB_REGISTRATION_INVALID)', (_label, input) => {
    expect(() => defineJobs(input() as never)).toThrow(
      expect.objectContaining({ code: 'X_JOB_REGISTRATION_INVALID' }),
    );
  });

  it('feeds the process-wide registry that inspectManifest reads', () => {
    const first = makeJob();
    const second = makeJob();
    defineJobs({ jobs: [namespace({ first })] });
    const own = defineJobs({ jobs: [namespace({ second })], tasks: [namespace({ nightly: makeTask() })] });
    expect(own.jobs()).toEqual([second]);
    expect(inspectManifest()).toEqual({
      jobs: [first.describe(), second.describe()],
      tasks: [{ kind: 'task', name: 'nightly', cron: '0 3 * * *' }],
    });
  });

  it('refuses a job and a task under one name: they share a namespace', () => {
    defineJobs({ jobs: [namespace({ digest: makeJob() })] });
    expect(() => defineJobs({ tasks: [namespace({ digest: makeTask() })] })).toThrow(
      expect.objectContaining({ code: 'X_JOB_DUPLICATE' }),
    );
  });
});
