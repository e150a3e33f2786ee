import type { CoreErrorCode } from '../errors/codes.js';
import { coreError } from '../errors/core-error.js';

/**
 * Refuses an options or policy object with a key outside `known` (a typo such as `{ dealy: '1h' }`
 * would otherwise be ignored): `code` with `meta.field` (`${field}.${key}`), `meta.unknown` and
 * `meta.known`. A `for…in` over the object, so an empty options object costs nothing.
 */
export function checkKnownKeys(
  value: object,
  known: ReadonlySet<string>,
  field: string,
  code: CoreErrorCode,
): void {
  for (const key in value) {
    if (!known.has(key)) {
      const path = field === '' ? key : `${field}.${key}`;
      throw coreError(code, `${path}: not a known option; known keys are ${[...known].join(', ')}.`, {
        field: path,
        unknown: key,
        known: [...known],
      });
    }
  }
}
