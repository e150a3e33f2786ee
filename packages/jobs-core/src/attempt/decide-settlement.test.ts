import { describe, expect, it } from 'vitest';
import { coreError } from '../errors/core-error.js';
import { failureOf } from '../steps/failure.js';
import { StepSuspension } from '../steps/step-suspension.js';
import type { StopCause } from './attempt-stop.js';
import { decideSettlement, type SettlementFacts } from './decide-settlement.js';
import type { AttemptOutcome } from './settlement.js';

const policy = { attempts: 3, backoff: 'fixed', delay: 1_000, jitter: false } as const;
const boom = new Error('boom');
const terminal = coreError('X_JOB_INPUT_INVALID', 'bad input');
const suspension = new StepSuspension('nap', 5_000);
const drain: StopCause = { kind: 'drain', error: coreError('X_DRAINING', 'draining') };
const timeout: StopCause = { kind: 'timeout', error: coreError('X_JOB_TIMEOUT', 'slow') };
const slot: StopCause = { kind: 'slot-lost', error: coreError('X_JOB_SLOT_LOST', 'taken') };
const lapsed: StopCause = {
  kind: 'lease-lost',
  error: coreError('X_JOB_LEASE_LOST', 'lost'),
  refused: false,
};
const refused: StopCause = {
  kind: 'lease-lost',
  error: coreError('X_JOB_LEASE_LOST', 'lost'),
  refused: true,
};
const failure = failureOf(boom);

const returned: AttemptOutcome = { kind: 'returned', result: 'ok' };
const threw: AttemptOutcome = { kind: 'threw', error: boom };
const threwTerminal: AttemptOutcome = { kind: 'threw', error: terminal };
const suspended: AttemptOutcome = { kind: 'suspended', suspension };
const stopped: AttemptOutcome = { kind: 'stopped' };
const refusal: AttemptOutcome = { kind: 'refused', failure: failureOf(terminal) };
const deferred: AttemptOutcome = {
  kind: 'deferred',
  delayMs: 1_000,
  code: 'X_JOB_CONCURRENCY_BUSY',
  key: 'job:x',
};
const buried: AttemptOutcome = { kind: 'buried', failure, stopReason: 'attempts-exhausted' };
const exhausted: AttemptOutcome = {
  kind: 'exhausted',
  failure: failureOf(coreError('X_JOB_MAX_ATTEMPTS', 'spent')),
};
const notOurs: AttemptOutcome = { kind: 'not-ours' };

type Row = [
  label: string,
  cause: StopCause | undefined,
  outcome: AttemptOutcome,
  attempt: number,
  unwindable: boolean,
  expected: string,
];

// expected: the settlement kind, plus `:detail` (stop reason, release code, retry delay, dead code).
const table: Row[] = [
  ['returned → ack', undefined, returned, 1, false, 'ack'],
  ['returned after a drain → ack', drain, returned, 1, false, 'ack'],
  ['returned after a lapsed window → ack (fenced: lands if still ours)', lapsed, returned, 1, false, 'ack'],
  ['returned, lease refused → lost', refused, returned, 1, false, 'lost'],
  ['suspended → suspend', undefined, suspended, 1, false, 'suspend'],
  ['suspended during a drain → suspend', drain, suspended, 1, false, 'suspend'],
  ['threw, attempts left → retry', undefined, threw, 1, false, 'retry:1000'],
  ['threw on the last attempt → dead', undefined, threw, 3, false, 'dead:attempts-exhausted:ERROR'],
  [
    'threw on the last attempt, compensators → unwind',
    undefined,
    threw,
    3,
    true,
    'unwind:attempts-exhausted',
  ],
  [
    'threw terminal early → dead, terminal',
    undefined,
    threwTerminal,
    1,
    false,
    'dead:terminal:X_JOB_INPUT_INVALID',
  ],
  ['threw during a drain → release uncounted', drain, threw, 1, false, 'release:X_DRAINING'],
  ['threw after a lapsed window → lost (left to lapse)', lapsed, threw, 1, false, 'lost'],
  ['stopped by the timeout → retry', timeout, stopped, 1, false, 'retry:1000'],
  [
    'stopped by the timeout, last attempt → dead',
    timeout,
    stopped,
    3,
    false,
    'dead:attempts-exhausted:X_JOB_TIMEOUT',
  ],
  ['stopped by a lost slot → retry', slot, stopped, 2, false, 'retry:1000'],
  ['stopped by a lapsed window → lost', lapsed, stopped, 1, false, 'lost'],
  ['stopped by a refused renewal → lost', refused, stopped, 1, true, 'lost'],
  ['refused at admission → dead, terminal', undefined, refusal, 1, true, 'dead:terminal:X_JOB_INPUT_INVALID'],
  ['slot busy → release after the delay', undefined, deferred, 1, false, 'release:X_JOB_CONCURRENCY_BUSY'],
  ['buried, compensators → unwind', undefined, buried, 4, true, 'unwind:attempts-exhausted'],
  ['buried, nothing to undo → dead', undefined, buried, 4, false, 'dead:attempts-exhausted:ERROR'],
  ['buried during a drain → release', drain, buried, 4, true, 'release:X_DRAINING'],
  [
    'exhausted before start → dead',
    undefined,
    exhausted,
    4,
    true,
    'dead:attempts-exhausted:X_JOB_MAX_ATTEMPTS',
  ],
  ['start refused → lost', undefined, notOurs, 1, false, 'lost'],
];

function summary(facts: SettlementFacts): string {
  const settlement = decideSettlement(facts);
  switch (settlement.kind) {
    case 'retry':
      return `retry:${settlement.delayMs}`;
    case 'dead':
      return `dead:${settlement.stopReason}:${settlement.record.code}`;
    case 'unwind':
      return `unwind:${settlement.stopReason}`;
    case 'release':
      return `release:${settlement.code}`;
    default:
      return settlement.kind;
  }
}

describe('decideSettlement: stop cause × outcome × policy → one settlement', () => {
  it.each(table)('%s', (_label, cause, outcome, attempt, unwindable, expected) => {
    expect(
      summary({ cause, outcome, attempt, policy, retryAttempts: 3, unwindable, random: () => 0.5 }),
    ).toBe(expected);
  });

  it('says a terminal failure before the last attempt was terminal, in the row message', () => {
    const settlement = decideSettlement({
      cause: undefined,
      outcome: threwTerminal,
      attempt: 1,
      policy,
      retryAttempts: 3,
      unwindable: false,
    });
    expect(settlement.kind === 'dead' && settlement.record.message).toBe(
      'bad input [terminal on attempt 1 of 3]',
    );
  });

  it('is pure: the same facts give the same settlement', () => {
    const facts = {
      cause: timeout,
      outcome: stopped,
      attempt: 1,
      policy,
      retryAttempts: 3,
      unwindable: false,
      random: () => 0.1,
    };
    expect(decideSettlement(facts)).toEqual(decideSettlement(facts));
  });
});
