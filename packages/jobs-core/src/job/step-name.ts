import { coreError } from '../errors/core-error.js';

/** The step name that marks a run as compensating; reserved for the executor. */
export const UNWINDING_STEP = 'unwinding';

/** The prefix of a compensator's durable step (`compensate:<name>`); reserved for the executor. */
export const COMPENSATE_STEP_PREFIX = 'compensate:';

/**
 * Refuses a step name a body may not use: empty or not a string, `unwinding`, or one starting
 * with `compensate:`. `X_JOB_DECLARATION_INVALID` naming the step. The executor calls it on every
 * step a body names.
 */
export function assertStepName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '') {
    throw coreError('X_JOB_DECLARATION_INVALID', 'step name: must be a non-empty string.', {
      field: 'step',
    });
  }
  if (name === UNWINDING_STEP || name.startsWith(COMPENSATE_STEP_PREFIX)) {
    throw coreError(
      'X_JOB_DECLARATION_INVALID',
      `step name '${name}' is reserved: '${UNWINDING_STEP}' and '${COMPENSATE_STEP_PREFIX}*' name the executor's own steps. Rename the step.`,
      { field: 'step', step: name },
    );
  }
}

/** A step call whose first argument is a literal (or template) starting with a reserved name. */
const RESERVED_LITERAL = new RegExp(
  `\\.(?:run|sleep|sleepUntil|waitForEvent)\\(\\s*(['"\`])(${COMPENSATE_STEP_PREFIX}[^'"\`]*|${UNWINDING_STEP}(?=\\1))`,
);

/** A `compensate` option key: `{ compensate: …`, `{ compensate }`, `, compensate(…) {`. */
const COMPENSATE_OPTION = /[{,]\s*compensate\s*[:,}(]/;

/**
 * Checks what is statically visible in a `run` body's source: a reserved step name written as a
 * literal, and a `compensate` option in a job without `compensates: true`. Names built at run time
 * are checked by {@link assertStepName} when the step runs.
 */
export function checkRunSource(run: (...args: never[]) => unknown, compensates: boolean): void {
  const source = Function.prototype.toString.call(run);
  const reserved = RESERVED_LITERAL.exec(source);
  if (reserved !== null) assertStepName(reserved[2]);
  if (!compensates && COMPENSATE_OPTION.test(source)) {
    throw coreError(
      'X_JOB_DECLARATION_INVALID',
      'compensates: run passes a compensate option to step.run; declare compensates: true on the job to allow it.',
      { field: 'compensates' },
    );
  }
}
