import type { StepRecord } from '../driver/step-store.js';
import { invokeStateOf } from '../steps/step-invoke.js';
import type { JsonValue } from '../values/json.js';

/** The kinds of step a body can ask for. */
export type ReplayStepKind = 'run' | 'sleep' | 'waitForEvent' | 'invoke';

function isObject(value: JsonValue): value is { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: { readonly [key: string]: JsonValue }, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

/**
 * The kinds a stored record can have been written by, read off its shape (a record does not name
 * its kind). A `started` record is a sleep (`{ wakeAt }`), a wait (`{ since, deadline }`), an
 * invoke waiting on its child (`{ invoke: { childId, … }, since }`) or a `once` run (`null`); a
 * `failed` invoke keeps its `{ invoke }` state. A completed sleep keeps `{ wakeAt }` (and
 * `endedEarlyAt`), a completed wait `{ payload }` or `null` (timed out), a completed invoke the
 * child's result — any JSON, as a `run` step's output may be. So a completed record admits `run`
 * and `invoke` whatever its shape: a kind is called different only when the record could not have
 * come from the step now asked for (no false alarms).
 */
export function kindsOf(record: StepRecord): readonly ReplayStepKind[] {
  const output = record.output;
  if (record.status !== 'completed' && invokeStateOf(record) !== undefined) return ['invoke'];
  const sleepShape =
    isObject(output) && typeof output.wakeAt === 'number' && hasOnlyKeys(output, ['wakeAt', 'endedEarlyAt']);
  const waitState =
    isObject(output) &&
    typeof output.since === 'number' &&
    typeof output.deadline === 'number' &&
    hasOnlyKeys(output, ['since', 'deadline']);
  if (record.status === 'started') {
    if (sleepShape) return ['sleep'];
    if (waitState) return ['waitForEvent'];
    return ['run'];
  }
  if (sleepShape) return ['sleep', 'run', 'invoke'];
  if (output === null) return ['waitForEvent', 'run', 'invoke'];
  if (isObject(output) && 'payload' in output && hasOnlyKeys(output, ['payload']))
    return ['waitForEvent', 'run', 'invoke'];
  return ['run', 'invoke'];
}
