import { coreError } from '../errors/core-error.js';
import type { JsonValue } from '../json.js';
import { toJsonForm } from '../json-form.js';

/**
 * The JSON form of what a step, a run or an event answered, re-coding what JSON cannot hold (a
 * bigint, a cycle) as terminal `X_STEP_OUTPUT_UNSERIALIZABLE` naming `what`.
 */
export function persistableJsonForm(value: unknown, what: string): JsonValue {
  try {
    return toJsonForm(value);
  } catch (error) {
    throw coreError(
      'X_STEP_OUTPUT_UNSERIALIZABLE',
      `${what} returned a value JSON cannot hold (${error instanceof Error ? error.message : String(error)}). Return ids or strings (String(bigint)), not object graphs.`,
      { what },
      error,
    );
  }
}
