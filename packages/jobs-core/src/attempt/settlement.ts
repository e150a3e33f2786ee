import type { JobErrorRecord, StopReason } from '../driver/job-state.js';
import type { Failure } from '../steps/failure.js';
import type { StepSuspension } from '../steps/step-suspension.js';
import type { JsonValue } from '../values/json.js';

/**
 * What one attempt came to, before any policy is applied: the value the phases answer.
 *
 * - `returned`: the body returned; `result` is the JSON form to store.
 * - `threw`: the body (or a phase before it: `context()`, the slot, the step load) threw `error`.
 * - `suspended`: the body parked on `step.sleep` / `step.waitForEvent`.
 * - `stopped`: a stop (timeout, lost slot or lease) ended the wait; the body may still be running.
 * - `refused`: admission found a row that can never run (unknown input, tenant, concurrency).
 * - `deferred`: the fleet slot is busy (`whenBusy: 'wait'`), or the run is over its `rateLimit`
 *   (`X_JOB_RATE_LIMITED`): offered again after `delayMs`, uncounted.
 * - `buried`: the run failed for good earlier (its `unwinding` marker, or its retries spent):
 *   replayed to collect compensators, it unwinds and is dead-lettered with `failure`.
 * - `exhausted`: every attempt the row allows started and none settled: dead, body not started.
 * - `not-ours`: `start` answered false: the claim no longer holds the row.
 */
export type AttemptOutcome =
  | { readonly kind: 'returned'; readonly result: JsonValue }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'suspended'; readonly suspension: StepSuspension }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'refused'; readonly failure: Failure }
  | { readonly kind: 'deferred'; readonly delayMs: number; readonly code: string; readonly key: string }
  | { readonly kind: 'buried'; readonly failure: Failure; readonly stopReason: StopReason }
  | { readonly kind: 'exhausted'; readonly failure: Failure }
  | { readonly kind: 'not-ours' };

/**
 * The one write that ends an attempt (or `lost`: none, the row is not this worker's). Every
 * settlement is applied by `applySettlement`, the only caller of `ack`/`nack`.
 *
 * | kind | driver call | attempt |
 * |---|---|---|
 * | `ack` | `ack(result)` | counted |
 * | `retry` | `nack retry` at now + `delayMs` | counted |
 * | `dead` | `nack dead` with `record`, `stopReason` | counted |
 * | `unwind` | none yet: compensators run, then `dead` | counted |
 * | `suspend` | `nack suspend` | uncounted |
 * | `release` | `nack release` at now + `delayMs` | uncounted |
 * | `lost` | none | stays as the backend has it |
 */
export type Settlement =
  | { readonly kind: 'ack'; readonly result: JsonValue }
  | { readonly kind: 'retry'; readonly delayMs: number; readonly failure: Failure }
  | {
      readonly kind: 'dead';
      readonly failure: Failure;
      readonly record: JobErrorRecord;
      readonly stopReason: StopReason;
    }
  | { readonly kind: 'unwind'; readonly failure: Failure; readonly stopReason: StopReason }
  | { readonly kind: 'suspend'; readonly suspension: StepSuspension }
  | {
      readonly kind: 'release';
      readonly delayMs: number;
      readonly code: string;
      /** The slot or rate-limit key a `deferred` release waits for (logged), else undefined. */
      readonly key?: string;
    }
  | { readonly kind: 'lost' };
