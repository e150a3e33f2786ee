import {
  type Context,
  type ContextManager,
  context,
  propagation,
  ROOT_CONTEXT,
  type TextMapPropagator,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resetJobDriver, setJobDriver } from '../ambient/driver-slot.js';
import { job } from '../declare/job.js';
import type { JobDriver } from '../driver/job-driver.js';
import { JobsError } from '../errors/jobs-error.js';
import { UNWIND_MARGIN } from '../job/unwind-margin.js';
import { prepareEnqueue } from './prepare-enqueue.js';

const schema = z.object({
  orgId: z.string(),
  email: z.string().email(),
  tags: z.array(z.string()).optional(),
});
const signup = job({
  name: 'prepare-enqueue.signup',
  input: schema,
  idempotencyKey: ({ email }) => `signup:${email}`,
  tenant: ({ orgId }) => orgId,
  retry: { attempts: 4 },
  run: async () => {},
});
const system = job({
  name: 'prepare-enqueue.system',
  input: z.object({ day: z.string() }),
  idempotencyKey: ({ day }) => day,
  tenant: 'none',
  compensates: true,
  run: async () => {},
});
const valid = { orgId: 'org-1', email: 'a@example.com' };

function thrown(fn: () => unknown): JobsError {
  try {
    fn();
  } catch (error) {
    if (error instanceof JobsError) return error;
    throw error;
  }
  throw new Error('expected a JobsError');
}

describe('prepareEnqueue: input', () => {
  it('lists issue paths and codes, never the values', () => {
    const error = thrown(() =>
      prepareEnqueue(signup, { orgId: 17, email: 'secret-value@@', tags: ['ok', 5] } as never),
    );
    expect(error.code).toBe('X_JOB_INPUT_INVALID');
    expect(error.meta.issues).toEqual([
      { path: 'orgId', code: 'invalid_type' },
      { path: 'email', code: 'invalid_format' },
      { path: 'tags.1', code: 'invalid_type' },
    ]);
    expect(error.message).not.toContain('secret-value');
    expect(JSON.stringify(error.meta)).not.toContain('secret-value');
  });

  it('stores the JSON form of the parsed input as the payload', () => {
    const request = prepareEnqueue(signup, { ...valid, extra: 'stripped' } as never);
    expect(request.payload).toEqual(valid);
  });

  it('refuses a derivation that returns an empty key (X_JOB_KEY_INVALID)', () => {
    const blank = job({
      name: 'prepare-enqueue.blank',
      input: z.object({}),
      idempotencyKey: () => '',
      tenant: 'none',
      run: async () => {},
    });
    expect(thrown(() => prepareEnqueue(blank, {})).code).toBe('X_JOB_KEY_INVALID');
  });
});

describe('prepareEnqueue: tenant', () => {
  it('derives the tenant from the input', () => {
    expect(prepareEnqueue(signup, valid).tenantId).toBe('org-1');
  });

  it('accepts an explicit tenantId equal to the derived one', () => {
    expect(prepareEnqueue(signup, valid, { tenantId: 'org-1' }).tenantId).toBe('org-1');
  });

  it.each([
    ['an explicit tenantId that differs', { tenantId: 'org-2' }],
    ['an explicit null tenantId for a tenant job', { tenantId: null }],
    ['an actor from another org', { actor: { id: 'u', orgId: 'org-2' } }],
  ])('refuses %s (X_JOB_TENANT_MISMATCH)', (_label, options) => {
    expect(thrown(() => prepareEnqueue(signup, valid, options)).code).toBe('X_JOB_TENANT_MISMATCH');
  });

  it('accepts an org-less actor and records it as enqueuedBy', () => {
    const request = prepareEnqueue(signup, valid, { actor: { id: 'svc', orgId: null } });
    expect(request).toMatchObject({ tenantId: 'org-1', enqueuedBy: 'svc' });
  });

  it("keeps a tenant: 'none' job tenantless, refusing an explicit tenantId", () => {
    expect(
      prepareEnqueue(system, { day: 'mon' }, { actor: { id: 'u', orgId: 'org-1' } }).tenantId,
    ).toBeNull();
    expect(thrown(() => prepareEnqueue(system, { day: 'mon' }, { tenantId: 'org-1' })).code).toBe(
      'X_JOB_TENANT_MISMATCH',
    );
  });
});

describe('prepareEnqueue: options', () => {
  afterEach(() => resetJobDriver());

  it('mints distinct UUIDs for id and runId, or keeps the given runId', () => {
    const a = prepareEnqueue(signup, valid);
    const b = prepareEnqueue(signup, valid, { runId: 'run-7' });
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.id).not.toBe(a.runId);
    expect(b.runId).toBe('run-7');
  });

  it('resolves runAt from a Date or epoch ms, and delay from the installed driver clock', () => {
    expect(prepareEnqueue(signup, valid, { runAt: new Date(5_000) }).runAt).toBe(5_000);
    expect(prepareEnqueue(signup, valid, { runAt: 6_000 }).runAt).toBe(6_000);
    setJobDriver({ now: () => 1_000_000 } as JobDriver);
    expect(prepareEnqueue(signup, valid, { delay: '10s' }).runAt).toBe(1_010_000);
    expect('runAt' in prepareEnqueue(signup, valid, { delay: 0 })).toBe(false);
    expect('runAt' in prepareEnqueue(signup, valid)).toBe(false);
  });

  it.each([
    ['runAt and delay together', { runAt: 1, delay: '1s' }],
    ['an invalid Date', { runAt: new Date(Number.NaN) }],
    ["an unparseable delay ('3x')", { delay: '3x' }],
    ['a fractional priority', { priority: 1.5 }],
    ['an empty runId', { runId: '' }],
    ['an unknown onConflict', { onConflict: 'replace' }],
    ['an actor without an id', { actor: { orgId: null } }],
  ])('refuses %s (X_JOB_ENQUEUE_OPTIONS_INVALID)', (_label, options) => {
    expect(thrown(() => prepareEnqueue(signup, valid, options as never)).code).toBe(
      'X_JOB_ENQUEUE_OPTIONS_INVALID',
    );
  });

  it('takes priority from the options over the definition, and onConflict as given', () => {
    const request = prepareEnqueue(signup, valid, { priority: -4, onConflict: 'error' });
    expect(request).toMatchObject({ priority: -4, onConflict: 'error' });
  });

  it('sets maxAttempts from retry.attempts, plus the unwind margin when the job compensates', () => {
    expect(prepareEnqueue(signup, valid).maxAttempts).toBe(4);
    expect(prepareEnqueue(system, { day: 'mon' }).maxAttempts).toBe(5 + UNWIND_MARGIN);
  });

  it('refuses a value job() did not make (X_JOB_NOT_A_HANDLE)', () => {
    expect(thrown(() => prepareEnqueue({ name: 'fake' } as never, valid)).code).toBe('X_JOB_NOT_A_HANDLE');
  });
});

/** A synchronous context manager: enough for context.with() to make a context active. */
class StackContextManager implements ContextManager {
  #stack: Context[] = [];
  active(): Context {
    return this.#stack.at(-1) ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.#stack.push(ctx);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.#stack.pop();
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#stack = [];
    return this;
  }
}

/** A W3C trace-context injector (the part of the spec enqueue relies on), counting its calls. */
class CountingW3CPropagator implements TextMapPropagator {
  injected = 0;
  inject(ctx: Context, carrier: unknown): void {
    const span = trace.getSpanContext(ctx);
    if (span === undefined) return;
    this.injected += 1;
    const flags = span.traceFlags.toString(16).padStart(2, '0');
    (carrier as Record<string, string>).traceparent = `00-${span.traceId}-${span.spanId}-${flags}`;
  }
  extract(ctx: Context): Context {
    return ctx;
  }
  fields(): string[] {
    return ['traceparent'];
  }
}

describe('prepareEnqueue: traceparent', () => {
  const spanContext = {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    traceFlags: TraceFlags.SAMPLED,
  };
  const inSpan = trace.setSpanContext(ROOT_CONTEXT, spanContext);
  const expected = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  beforeAll(() => {
    context.setGlobalContextManager(new StackContextManager());
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });

  it('is null with no active span', () => {
    expect(prepareEnqueue(signup, valid).traceparent).toBeNull();
  });

  it('is written by the registered propagator when there is one', () => {
    const propagator = new CountingW3CPropagator();
    propagation.setGlobalPropagator(propagator);
    const request = context.with(inSpan, () => prepareEnqueue(signup, valid));
    expect(request.traceparent).toBe(expected);
    expect(propagator.injected).toBe(1);
    propagation.disable();
  });

  it('is formatted from the active span context when no propagator writes one', () => {
    const request = context.with(inSpan, () => prepareEnqueue(signup, valid));
    expect(request.traceparent).toBe(expected);
  });
});
