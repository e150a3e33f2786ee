import { coreError } from '../errors/core-error.js';
import type { JsonValue } from '../json.js';

/**
 * The JSON form of a value: what a step persists and what it answers, on the first run and on
 * replay alike. A `Date` becomes its ISO string (anything with `toJSON()` its result); `undefined`,
 * a function or a symbol at the top becomes `null` (as in arrays; on members it is dropped). A
 * bigint or a cycle cannot be held: terminal `X_STEP_OUTPUT_UNSERIALIZABLE` naming `what`.
 */
export function toJsonForm(value: unknown, what: string): JsonValue {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw coreError(
      'X_STEP_OUTPUT_UNSERIALIZABLE',
      `${what} returned a value JSON cannot hold (${error instanceof Error ? error.message : String(error)}). Return ids or strings (String(bigint)), not object graphs.`,
      { what },
      error,
    );
  }
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}
