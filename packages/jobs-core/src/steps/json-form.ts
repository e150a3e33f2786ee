import type { JsonValue } from '../values/json.js';
import { storableJsonForm } from '../values/storable-value.js';

/**
 * The JSON form of what a step, a run or an event answered, as every driver stores it: the one
 * place the executor turns a produced value into what it persists. What JSON cannot hold (a
 * bigint, a cycle) is terminal `X_STEP_OUTPUT_UNSERIALIZABLE`; what no driver stores exactly (a
 * lone surrogate, U+0000, a non-finite number, too deep, too large) is terminal
 * `X_JOB_OUTPUT_UNSTORABLE` naming `what` and the path — before any driver sees it, so memory,
 * Postgres and Redis refuse the same values the same way.
 */
export function persistableJsonForm(value: unknown, what: string): JsonValue {
  return storableJsonForm(value, what);
}
