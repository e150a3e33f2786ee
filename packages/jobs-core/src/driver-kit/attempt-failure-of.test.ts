import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_ERROR_LIMITS, type AttemptFailure } from '../driver/attempt-error.js';
import { coreError } from '../errors/core-error.js';
import { attemptFailureOf } from './attempt-failure-of.js';

const WELL_FORMED_WITHOUT_NUL = (text: string): boolean =>
  (text as string & { isWellFormed(): boolean }).isWellFormed() && !text.includes('\u0000');

/** Every guarantee of a record, whatever was thrown. */
function expectWellFormed(record: AttemptFailure): void {
  const json = JSON.stringify(record);
  expect(Buffer.byteLength(json, 'utf8')).toBeLessThanOrEqual(ATTEMPT_ERROR_LIMITS.recordBytes);
  expect(JSON.parse(json)).toEqual(record);
  const strings = [record.name, record.code, record.message, record.stack ?? '', record.step ?? ''];
  for (const cause of record.causes)
    strings.push(cause.name, cause.code ?? '', cause.message, cause.stack ?? '');
  for (const text of strings) expect(typeof text === 'string' && WELL_FORMED_WITHOUT_NUL(text)).toBe(true);
  expect(record.causes.length).toBeLessThanOrEqual(ATTEMPT_ERROR_LIMITS.causes);
  expect(record.name).not.toBe('');
  expect(record.code).not.toBe('');
}

/** Strings with the awkward parts: U+0000, lone surrogates, quotes, control characters, astral. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({
    unit: fc.constantFrom('\u0000', '\ud800', '\udc00', '"', '\\', '\n', '\u0001', '😀', 'é', 'a'),
    maxLength: 300,
  }),
  fc.string({ maxLength: 40 }).map((s) => s.repeat(600)),
);

const anyThrown: fc.Arbitrary<unknown> = fc.letrec<{ thrown: unknown }>((tie) => ({
  thrown: fc.oneof(
    { depthSize: 'small' },
    fc.anything(),
    nastyString,
    fc.record({
      message: fc.oneof(nastyString, fc.anything()),
      name: fc.oneof(nastyString, fc.constant(undefined)),
      code: fc.oneof(nastyString, fc.integer(), fc.constant(undefined)),
      stack: fc.oneof(nastyString, fc.constant(undefined)),
      cause: fc.oneof(tie('thrown'), fc.constant(undefined)),
    }),
    fc
      .tuple(nastyString, nastyString, fc.oneof(tie('thrown'), fc.constant(undefined)))
      .map(([message, stack, cause]) => {
        const error = new Error(message, cause === undefined ? undefined : { cause });
        error.stack = stack;
        return error;
      }),
  ),
})).thrown;

describe('attemptFailureOf', () => {
  it('answers a bounded, well-formed record for anything thrown (fast-check)', () => {
    fc.assert(
      fc.property(
        anyThrown,
        fc.integer({ min: 1, max: 1_000 }),
        fc.option(nastyString),
        (thrown, attempt, step) => {
          const record = attemptFailureOf(thrown, { attempt, step });
          expectWellFormed(record);
          expect(record.attempt).toBe(attempt);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('records class, code, message, stack and the cause chain of an Error', () => {
    const root = new TypeError('socket hang up');
    const error = coreError('X_JOB_TIMEOUT', 'upstream returned 500', {}, root);
    const record = attemptFailureOf(error, { attempt: 2, step: 'charge' });
    expect(record).toMatchObject({
      attempt: 2,
      name: 'JobsError',
      code: 'X_JOB_TIMEOUT',
      message: 'upstream returned 500',
      step: 'charge',
      truncated: false,
    });
    expect(record.stack).toContain('upstream returned 500');
    expect(record.stack).toContain('attempt-failure-of.test');
    expect(record.causes).toEqual([
      { name: 'TypeError', code: null, message: 'socket hang up', stack: root.stack },
    ]);
  });

  it('a plain Error without a code is ERROR; a thrown string is a NonError with that message', () => {
    expect(attemptFailureOf(new Error('upstream returned 500'), { attempt: 1, step: null })).toMatchObject({
      name: 'Error',
      code: 'ERROR',
      message: 'upstream returned 500',
    });
    expect(attemptFailureOf('boom', { attempt: 1, step: null })).toMatchObject({
      name: 'NonError',
      code: 'ERROR',
      message: 'boom',
      stack: null,
      causes: [],
    });
    expect(attemptFailureOf(undefined, { attempt: 1, step: null }).message).toBe('undefined');
    expect(attemptFailureOf({ reason: 'x' }, { attempt: 1, step: null }).message).toBe('{"reason":"x"}');
  });

  it('ends a circular cause chain at the cycle', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    const record = attemptFailureOf(a, { attempt: 1, step: null });
    expect(record.causes.map((cause) => cause.message)).toEqual(['b']);
    const self = new Error('self');
    (self as { cause?: unknown }).cause = self;
    expect(attemptFailureOf(self, { attempt: 1, step: null }).causes).toEqual([]);
  });

  it('keeps at most the cause limit, marking the record truncated', () => {
    let error = new Error('link 0');
    for (let i = 1; i < 30; i++) error = new Error(`link ${i}`, { cause: error });
    const record = attemptFailureOf(error, { attempt: 1, step: null });
    expect(record.causes).toHaveLength(ATTEMPT_ERROR_LIMITS.causes);
    expect(record.causes[0]?.message).toBe('link 28');
    expect(record.truncated).toBe(true);
  });

  it('cuts a huge stack to fit, and says so', () => {
    const error = new Error('deep');
    error.stack = `Error: deep\n${'    at frame (file.js:1:1)\n'.repeat(50_000)}`;
    const record = attemptFailureOf(error, { attempt: 1, step: null });
    expectWellFormed(record);
    expect(record.truncated).toBe(true);
    expect(record.stack?.endsWith('… [truncated]')).toBe(true);
    expect(record.stack?.startsWith('Error: deep\n    at frame')).toBe(true);
  });

  it('reads a value whose getters throw without throwing', () => {
    const hostile = new Proxy(new Error('x'), {
      get() {
        throw new Error('no reading');
      },
      has() {
        throw new Error('no asking');
      },
    });
    expectWellFormed(attemptFailureOf(hostile, { attempt: 1, step: null }));
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expectWellFormed(attemptFailureOf(proxy, { attempt: 1, step: null }));
  });

  it('redacts sensitive values in message and stack by the input rules, extra keys too', () => {
    const error = new Error('login failed: password=hunter2 user=bob, "apiKey": "k-123" iban=DE00');
    error.stack = `Error: connect postgres://app:s3cret@db:5432/x\n    at Authorization: Bearer abc.def`;
    const record = attemptFailureOf(error, { attempt: 1, step: null }, ['iban']);
    expect(record.message).toBe(
      'login failed: password=[redacted] user=bob, "apiKey": "[redacted]" iban=[redacted]',
    );
    expect(record.stack).toBe(
      'Error: connect postgres://app:[redacted]@db:5432/x\n    at Authorization: [redacted]',
    );
  });
});
