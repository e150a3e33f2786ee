import { coreError } from '../errors/core-error.js';
import type { JsonValue } from '../values/json.js';
import { checkedJsonForm } from '../values/json-form-check.js';

/**
 * The payload a driver stores: the JSON form of the parsed input, checked against the value rules.
 * No JSON form (a bigint, a cycle), a lone surrogate or U+0000 in a string or key, a non-finite
 * number or nesting past 64 levels is `X_JOB_INPUT_INVALID` naming the path (never the value);
 * more than `maxBytes` of JSON is `X_JOB_PAYLOAD_TOO_LARGE` with `meta.bytes` and `meta.max`.
 */
export function payloadOf(job: string, parsed: unknown, maxBytes: number): JsonValue {
  const checked = checkedJsonForm(parsed, maxBytes);
  if (checked.ok) return checked.value;
  if ('tooLarge' in checked) {
    throw coreError(
      'X_JOB_PAYLOAD_TOO_LARGE',
      `${job}: the payload is ${checked.tooLarge.bytes} bytes of JSON; the job allows ${checked.tooLarge.max} (maxPayloadBytes). Store the data elsewhere and enqueue a reference.`,
      { job, ...checked.tooLarge },
    );
  }
  const { issue } = checked;
  const why =
    issue.code === 'unserializable'
      ? 'the parsed input has no JSON form (a bigint or a cycle); payloads must be JSON'
      : `the payload breaks the value rules at ${issue.path} (${issue.code})`;
  throw coreError('X_JOB_INPUT_INVALID', `${job}: ${why}.`, { job, issues: [issue] }, checked.cause);
}
