import type { CoreErrorCode } from '../errors/codes.js';
import { coreError } from '../errors/core-error.js';
import { exceedsUtf8Bytes, stringIssue } from './string-rule.js';

/**
 * Checks one identity string a job carries (name, queue, tenant, idempotency key, run id):
 * storable ({@link stringIssue}) and at most `maxBytes` UTF-8 bytes. Refuses with `code` (e.g.
 * `X_JOB_INPUT_INVALID` at enqueue, `X_JOB_DECLARATION_INVALID` at declaration) whose
 * `meta.issues` names `field` and the rule (`lone_surrogate`, `nul_character`, `too_long`), never
 * the value.
 */
export function checkIdentityString(
  value: string,
  field: string,
  maxBytes: number,
  code: CoreErrorCode,
  job?: string,
): string {
  const issue = exceedsUtf8Bytes(value, maxBytes) ? 'too_long' : stringIssue(value);
  if (issue === undefined) return value;
  const prefix = job === undefined ? '' : `${job}: `;
  const rule =
    issue === 'too_long'
      ? `is longer than ${maxBytes} UTF-8 bytes`
      : issue === 'lone_surrogate'
        ? 'holds a lone UTF-16 surrogate, which no database stores as written'
        : 'holds U+0000, which Postgres refuses';
  throw coreError(code, `${prefix}${field} ${rule}.`, {
    ...(job === undefined ? {} : { job }),
    field,
    issues: [{ path: field, code: issue }],
    ...(issue === 'too_long' ? { maxBytes } : {}),
  });
}
