import { describe, expect, it } from 'vitest';
import type { JobsError } from '../errors/jobs-error.js';
import { assertStepName, checkRunSource } from './step-name.js';

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as JobsError).code;
  }
  return undefined;
}

describe('assertStepName', () => {
  it.each(['provision', 'sync:acct-1', 'unwinding-report', 'compensate'])('accepts %s', (name) => {
    expect(codeOf(() => assertStepName(name))).toBeUndefined();
  });

  it.each(['unwinding', 'compensate:charge', 'compensate:', '', 42])('refuses %s', (name) => {
    expect(codeOf(() => assertStepName(name))).toBe('X_JOB_DECLARATION_INVALID');
  });
});

describe('checkRunSource', () => {
  const step = { run: (..._args: unknown[]) => undefined, sleep: (..._args: unknown[]) => undefined };

  it('refuses reserved literals in step calls', () => {
    expect(codeOf(() => checkRunSource(() => step.run('unwinding', () => 1), false))).toBe(
      'X_JOB_DECLARATION_INVALID',
    );
    expect(codeOf(() => checkRunSource(() => step.sleep(`compensate:${'x'}`, '1s'), false))).toBe(
      'X_JOB_DECLARATION_INVALID',
    );
  });

  it('accepts names that only start like a reserved one', () => {
    expect(codeOf(() => checkRunSource(() => step.run('unwinding-report', () => 1), false))).toBeUndefined();
  });

  it('refuses a compensate option unless the job compensates', () => {
    const body = () => step.run('charge', () => 1, { compensate: () => undefined });
    expect(codeOf(() => checkRunSource(body, false))).toBe('X_JOB_DECLARATION_INVALID');
    expect(codeOf(() => checkRunSource(body, true))).toBeUndefined();
  });
});
