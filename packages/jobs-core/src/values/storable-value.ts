import { coreError } from '../errors/core-error.js';
import type { JsonValue } from './json.js';
import { checkedJsonForm } from './json-form-check.js';
import { type ValueIssue, valueIssue } from './value-issue.js';
import { VALUE_LIMITS } from './value-limits.js';

/**
 * Where a value a body produced (a step output, a run result, progress, an event payload) breaks
 * the storable-value rule, or undefined when every driver stores it exactly. The rule is the
 * payload rule: strings and keys well-formed without U+0000, numbers finite, no bigint, bounded
 * depth. `label` is unused by the check; it is accepted so call sites read alike.
 */
export function storableValueIssue(value: unknown, _label?: string): ValueIssue | undefined {
  return valueIssue(value);
}

/**
 * The JSON form of a value a body produced, as every driver will store it: the drop-in for
 * persisting step outputs, run results, progress and event payloads. A bigint or a cycle is
 * `X_STEP_OUTPUT_UNSERIALIZABLE`; a lone surrogate, U+0000, a non-finite number, nesting past
 * {@link VALUE_LIMITS.maxDepth} or more than `maxBytes` of JSON (Default: 64 MiB) is
 * `X_JOB_OUTPUT_UNSTORABLE` naming `what` and the path, never the value. Both are terminal: the
 * same body would produce the same value again.
 */
export function storableJsonForm(
  value: unknown,
  what: string,
  maxBytes: number = VALUE_LIMITS.maxPayloadBytes,
): JsonValue {
  const checked = checkedJsonForm(value, maxBytes);
  if (checked.ok) return checked.value;
  if ('tooLarge' in checked) {
    throw coreError(
      'X_JOB_OUTPUT_UNSTORABLE',
      `${what} produced ${checked.tooLarge.bytes} bytes of JSON; at most ${checked.tooLarge.max} are stored. Store a reference instead.`,
      { what, ...checked.tooLarge },
    );
  }
  const { issue } = checked;
  if (issue.code === 'unserializable') {
    throw coreError(
      'X_STEP_OUTPUT_UNSERIALIZABLE',
      `${what} returned a value JSON cannot hold (a bigint or a cycle). Return ids or strings (String(bigint)), not object graphs.`,
      { what },
      checked.cause,
    );
  }
  throw coreError(
    'X_JOB_OUTPUT_UNSTORABLE',
    `${what} produced a value no driver stores exactly: ${issue.path} (${issue.code}).`,
    { what, issues: [issue] },
  );
}
