import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { job } from '../declare/job.js';
import { prepareEnqueue } from '../enqueue/prepare-enqueue.js';
import { isJobsError, type JobsError } from '../errors/jobs-error.js';
import { REGISTRABLE } from '../job/registrable.js';
import { retrySchedule } from '../retry/retry-schedule.js';

function thrown(fn: () => unknown): JobsError {
  try {
    fn();
  } catch (error) {
    if (isJobsError(error)) return error;
    throw error;
  }
  throw new Error('expected a JobsError');
}

let n = 0;
const base = (patch: Record<string, unknown> = {}) => ({
  name: `value-rules-${n++}-${Math.random()}`,
  input: z.object({ key: z.string(), org: z.string(), data: z.any().optional() }),
  idempotencyKey: ({ key }: { key: string }) => key,
  tenant: ({ org }: { org: string }) => org,
  run: async () => {},
  ...patch,
});
const declare = (patch: Record<string, unknown> = {}) => job(base(patch) as never);
const declared = declare();
const prepare = (input: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  prepareEnqueue(declared, { key: 'k', org: 'org-1', ...input } as never, options as never);

describe('value rules at enqueue', () => {
  it('keeps distinct keys distinct: a lone surrogate is refused, never merged into U+FFFD', () => {
    expect(prepare({ key: 'order-\ufffd' }).idempotencyKey).toBe('order-\ufffd');
    for (const key of ['order-\ud800', 'order-\udbff']) {
      const error = thrown(() => prepare({ key }));
      expect(error.code).toBe('X_JOB_INPUT_INVALID');
      expect(error.meta.issues).toEqual([{ path: 'idempotencyKey', code: 'lone_surrogate' }]);
      expect(JSON.stringify(error.meta)).not.toContain('order');
    }
  });
  it('refuses a tenant with U+0000 and identity strings past their byte limits', () => {
    expect(thrown(() => prepare({ org: 'org\u0000' })).meta.issues).toEqual([
      { path: 'tenant', code: 'nul_character' },
    ]);
    expect(thrown(() => prepare({ org: 'o'.repeat(256) })).code).toBe('X_JOB_INPUT_INVALID');
    expect(prepare({ org: 'o'.repeat(255) }).tenantId).toHaveLength(255);
    expect(thrown(() => prepare({ key: 'é'.repeat(513) })).meta.issues).toEqual([
      { path: 'idempotencyKey', code: 'too_long' },
    ]);
  });
  it('names the payload path of a bad string, key or number, never the value', () => {
    expect(thrown(() => prepare({ data: { list: ['ok', 'x\u0000'] } })).meta.issues).toEqual([
      { path: 'data.list.1', code: 'nul_character' },
    ]);
    expect(thrown(() => prepare({ data: { '\udfff': 1 } })).meta.issues).toEqual([
      { path: 'data', code: 'key_lone_surrogate' },
    ]);
    expect(thrown(() => prepare({ data: Number.NaN })).meta.issues).toEqual([
      { path: 'data', code: 'not_finite' },
    ]);
  });
  it('refuses a payload over maxPayloadBytes (1 MiB by default, per job when declared)', () => {
    expect(thrown(() => prepare({ data: 'x'.repeat(1_048_576) })).code).toBe('X_JOB_PAYLOAD_TOO_LARGE');
    expect(prepare({ data: 'x'.repeat(1_048_000) }).payload).toBeDefined();
    const small = declare({ maxPayloadBytes: 100 });
    const error = thrown(() => prepareEnqueue(small, { key: 'k', org: 'o', data: 'x'.repeat(100) } as never));
    expect(error.code).toBe('X_JOB_PAYLOAD_TOO_LARGE');
    expect(error.meta.max).toBe(100);
  });
  it('parses options strictly: a typo is refused with the known keys named', () => {
    const error = thrown(() => prepare({}, { dealy: '1h' }));
    expect(error.code).toBe('X_JOB_ENQUEUE_OPTIONS_INVALID');
    expect(error.meta.unknown).toBe('dealy');
    expect(error.meta.known).toContain('delay');
  });
  it('bounds runAt to [1970, 9999] and delay to [1 ms, 100 years]', () => {
    for (const options of [{ runAt: 1e20 }, { runAt: -1 }, { delay: '36526d' }, { delay: '0.4ms' }]) {
      expect(thrown(() => prepare({}, options)).code, JSON.stringify(options)).toBe(
        'X_JOB_ENQUEUE_OPTIONS_INVALID',
      );
    }
    expect(prepare({}, { runAt: 253_402_300_799_999 }).runAt).toBe(253_402_300_799_999);
    expect(prepare({}, { delay: '36524d' }).runAt).toBeGreaterThan(Date.now());
  });
  it('refuses a runId that breaks the string rule', () => {
    expect(thrown(() => prepare({}, { runId: 'r\ud800' })).code).toBe('X_JOB_ENQUEUE_OPTIONS_INVALID');
  });
  it('refuses a job whose stamped name breaks the string rule at enqueue', () => {
    const { name: _declaredName, ...unnamed } = base();
    const anonymous = job(unnamed as never);
    anonymous[REGISTRABLE].stampName('bad\ud800');
    expect(thrown(() => prepareEnqueue(anonymous, { key: 'k', org: 'o' } as never)).meta.issues).toEqual([
      { path: 'name', code: 'lone_surrogate' },
    ]);
  });
});

describe('value rules at declaration', () => {
  const code = (patch: Record<string, unknown>) => thrown(() => declare(patch)).code;
  it('refuses names and queues with lone surrogates, U+0000 or over 255 bytes', () => {
    for (const patch of [
      { name: 'job\ud800' },
      { name: 'job\u0000' },
      { name: 'n'.repeat(256) },
      { queue: 'q\udc00' },
      { queue: 'q'.repeat(256) },
    ]) {
      expect(code(patch), JSON.stringify(patch)).toBe('X_JOB_DECLARATION_INVALID');
    }
  });
  it('refuses unknown keys in the definition, the retry policy and concurrency, naming the known ones', () => {
    const error = thrown(() => declare({ retries: 3 }));
    expect(error.code).toBe('X_JOB_DECLARATION_INVALID');
    expect(error.meta.known).toContain('retry');
    expect(thrown(() => declare({ retry: { attempt: 3 } })).meta.field).toBe('retry.attempt');
    expect(thrown(() => declare({ concurrency: { limit: 1, whenbusy: 'fail' } })).meta.field).toBe(
      'concurrency.whenbusy',
    );
  });
  it('refuses retry: [], attempts past 1,000 and a retrySchedule of 1e9 attempts', () => {
    expect(code({ retry: [] })).toBe('X_JOB_DECLARATION_INVALID');
    expect(code({ retry: { attempts: 2 ** 31 } })).toBe('X_JOB_DECLARATION_INVALID');
    expect(code({ retry: { attempts: 1_001 } })).toBe('X_JOB_DECLARATION_INVALID');
    expect(declare({ retry: { attempts: 1_000 } }).retry.attempts).toBe(1_000);
    expect(thrown(() => retrySchedule({ attempts: 1e9 })).code).toBe('X_JOB_DECLARATION_INVALID');
  });
  it('refuses timers past 2^31-1 ms and durations that round to 0', () => {
    expect(code({ timeout: '25d' })).toBe('X_JOB_DECLARATION_INVALID');
    expect(code({ stepTimeout: 2 ** 31 })).toBe('X_JOB_DECLARATION_INVALID');
    expect(code({ timeout: '0.4ms' })).toBe('X_JOB_DECLARATION_INVALID');
    expect(declare({ timeout: 2 ** 31 - 1 }).timeout).toBe(2 ** 31 - 1);
    expect(declare({ eventPoll: '30d' }).eventPoll).toBe(30 * 86_400_000);
    expect(code({ retry: { maxDelay: '36600d' } })).toBe('X_JOB_DECLARATION_INVALID');
  });
  it('refuses a maxPayloadBytes that is not an integer from 1 to 64 MiB', () => {
    for (const maxPayloadBytes of [0, 1.5, 2 ** 26 + 1, '1mb']) {
      expect(code({ maxPayloadBytes }), String(maxPayloadBytes)).toBe('X_JOB_DECLARATION_INVALID');
    }
  });
});
