import { describe, expect, it } from 'vitest';
import { assertStepName, checkRunSource } from './step-name.js';

describe('assertStepName', () => {
  it.each(['provision', 'sync:acct-1', 'unwinding-report', 'compensate'])('accepts %s', (name) => {
    expect(() => assertStepName(name)).not.toThrow();
  });

  it.each(['unwinding', 'compensate:charge', 'compensate:', '', 42])('refuses %s', (name) => {
    expect(() => assertStepName(name)).toThrow(
      expect.objectContaining({ code: 'X_JOB_DECLARATION_INVALID' }),
    );
  });
});

describe('checkRunSource', () => {
  const step = { run: (..._args: unknown[]) => undefined, sleep: (..._args: unknown[]) => undefined };

  it('refuses reserved literals in step calls', () => {
    expect(() => checkRunSource(() => step.run('unwinding', () => 1), false)).toThrow(
      expect.objectContaining({ code: 'X_JOB_DECLARATION_INVALID' }),
    );
    expect(() => checkRunSource(() => step.sleep(`compensate:${'x'}`, '1s'), false)).toThrow(
      expect.objectContaining({ code: 'X_JOB_DECLARATION_INVALID' }),
    );
  });

  it('accepts names that only start like a reserved one', () => {
    expect(() => checkRunSource(() => step.run('unwinding-report', () => 1), false)).not.toThrow();
  });

  it('refuses a compensate option unless the job compensates', () => {
    const body = () => step.run('charge', () => 1, { compensate: () => undefined });
    expect(() => checkRunSource(body, false)).toThrow(
      expect.objectContaining({ code: 'X_JOB_DECLARATION_INVALID' }),
    );
    expect(() => checkRunSource(body, true)).not.toThrow();
  });
});
