import type { JobIntrospection } from '../driver/introspection.js';
import type { JobRecord } from '../driver/job-record.js';
import type { StepRecord } from '../driver/step-store.js';
import { prepareEnqueue } from '../enqueue/prepare-enqueue.js';
import { ChildJobError } from '../errors/child-job-error.js';
import { coreError } from '../errors/core-error.js';
import type { AnyJobHandle } from '../job/job-handle.js';
import type { InvokeOptions } from '../job/step-api.js';
import { flatUuid } from '../primitives/flat-uuid.js';
import type { JsonValue } from '../values/json.js';
import { childEvent, childKey } from './child-link.js';
import { recordOf } from './failure.js';
import { placeOf, replayOrStart } from './replay-or-start.js';
import type { StepLedger } from './step-ledger.js';
import { StepSuspension } from './step-suspension.js';

/**
 * What an invoke step stores while it waits (`started`): the child's id, which invocation of the
 * step it is (a retry after a child's retryable failure invokes a new child), the cascade option,
 * and when the wait began. A failed invocation keeps it (status `failed`).
 */
export interface InvokeState {
  readonly invoke: {
    readonly childId: string;
    readonly invocation: number;
    readonly cancelWithParent: boolean;
  };
  readonly since: number;
}

/** The invoke state of a record, when it is an invoke step's. */
export function invokeStateOf(record: StepRecord | undefined): InvokeState | undefined {
  const output = record?.output as Partial<InvokeState> | null | undefined;
  const invoke = output?.invoke;
  return invoke !== undefined && typeof invoke?.childId === 'string' ? (output as InvokeState) : undefined;
}

/**
 * `step.invoke(name, child, input, options)`. The first call validates the child's input, records
 * `started` with a fresh child id (fenced, before anything is enqueued), then enqueues the child
 * with that id and an invocation-scoped idempotency key, and suspends (no slot held). Every later
 * pass reads the child's row by the recorded id — so a replay never enqueues twice — and, the row
 * being absent (the enqueue never landed), enqueues it then. A `done` child completes the step
 * with its result; a `dead` one throws {@link ChildJobError} with its code and verdict; a
 * `cancelled` one `X_JOB_CHILD_CANCELLED` (terminal); a live one suspends again until the child's
 * settle publishes the parent's child event, or the job's `eventPoll`.
 */
export async function invokeStep(
  ledger: StepLedger,
  name: string,
  child: AnyJobHandle,
  input: unknown,
  options: InvokeOptions = {},
): Promise<JsonValue> {
  return replayOrStart(ledger, name, {
    replay: (existing) => existing.output,
    start: (existing) => startInvoke(ledger, name, child, input, options, existing),
  });
}

/** An invoke not completed yet: enqueues the child once, then completes from its row or suspends. */
async function startInvoke(
  ledger: StepLedger,
  name: string,
  child: AnyJobHandle,
  input: unknown,
  options: InvokeOptions,
  existing: StepRecord | undefined,
): Promise<JsonValue> {
  const { driver, fence } = ledger.options;
  const introspect = introspectionOf(ledger, name);
  const { position, startedAt } = placeOf(ledger, existing);
  const prior = invokeStateOf(existing);
  ledger.executed(name);
  let state: InvokeState;
  if (existing?.status === 'started' && prior !== undefined) {
    state = prior;
    const row = await introspect.get(state.invoke.childId);
    if (row !== null) {
      const settled = await settleFrom(ledger, name, { position, startedAt }, state, row);
      if (settled !== WAITING) return settled;
    } else {
      await driver.enqueue(childRequest(ledger, name, child, input, options, state));
    }
  } else {
    state = {
      invoke: {
        childId: flatUuid(),
        invocation: prior === undefined ? 0 : prior.invoke.invocation + 1,
        cancelWithParent: options.cancelWithParent ?? true,
      },
      since: ledger.now(),
    };
    // Built before the record is written: an invalid child input fails the step, nothing stored.
    const request = childRequest(ledger, name, child, input, options, state);
    await save(ledger, name, { position, startedAt }, 'started', state);
    const enqueued = await driver.enqueue(request);
    if (enqueued.id !== state.invoke.childId) {
      // A live row of this very invocation already held the key: wait on that one.
      state = { ...state, invoke: { ...state.invoke, childId: enqueued.id } };
      await save(ledger, name, { position, startedAt }, 'started', state);
    }
  }
  const now = ledger.now();
  // A child settled between the look above and this suspend: the driver's suspend makes the run due.
  throw new StepSuspension(name, now + ledger.options.eventPollMs, childEvent(fence.runId));
}

/** "The child is still live": the step goes on waiting. */
const WAITING: unique symbol = Symbol('waiting');

/** Completes or fails the step from the child's row; {@link WAITING} while the child is live. */
async function settleFrom(
  ledger: StepLedger,
  name: string,
  at: { readonly position: number; readonly startedAt: number },
  state: InvokeState,
  row: JobRecord,
): Promise<JsonValue | typeof WAITING> {
  if (row.state === 'done') {
    await ledger.save({
      name,
      position: at.position,
      status: 'completed',
      output: row.result,
      error: null,
      startedAt: at.startedAt,
      completedAt: ledger.now(),
    });
    return row.result;
  }
  if (row.state !== 'dead' && row.state !== 'cancelled') return WAITING;
  const meta = { step: name, childId: row.id, child: row.name, stopReason: row.stopReason };
  const error =
    row.state === 'cancelled'
      ? new ChildJobError(
          'X_JOB_CHILD_CANCELLED',
          `step '${name}': child job ${row.id} ('${row.name}') was cancelled${(row.cancelReason ?? null) === null ? '' : ` (${row.cancelReason})`}.`,
          'terminal',
          meta,
        )
      : new ChildJobError(
          row.lastError?.code ?? 'ERROR',
          `step '${name}': child job ${row.id} ('${row.name}') failed: ${row.lastError?.message ?? 'no error recorded'}`,
          row.stopReason === 'terminal' ? 'terminal' : 'retryable',
          meta,
        );
  await save(ledger, name, at, 'failed', state, error);
  throw error;
}

/** The child's enqueue request: the child's own rules, with the invocation's id and key. */
function childRequest(
  ledger: StepLedger,
  name: string,
  child: AnyJobHandle,
  input: unknown,
  options: InvokeOptions,
  state: InvokeState,
) {
  const request = prepareEnqueue(
    child,
    input,
    options.priority === undefined ? {} : { priority: options.priority },
  );
  return {
    ...request,
    id: state.invoke.childId,
    idempotencyKey: childKey(ledger.options.fence.runId, name, state.invoke.invocation),
    onConflict: 'dedupe' as const,
  };
}

function save(
  ledger: StepLedger,
  name: string,
  at: { readonly position: number; readonly startedAt: number },
  status: 'started' | 'failed',
  state: InvokeState,
  error?: unknown,
): Promise<void> {
  return ledger.save({
    name,
    position: at.position,
    status,
    output: { invoke: { ...state.invoke }, since: state.since },
    error: error === undefined ? null : recordOf(error),
    startedAt: at.startedAt,
    completedAt: null,
  });
}

function introspectionOf(ledger: StepLedger, name: string): JobIntrospection {
  const introspect = ledger.options.driver.introspect;
  if (introspect === undefined) {
    throw coreError(
      'X_DRIVER_INTROSPECTION_REQUIRED',
      `step.invoke('${name}'): driver '${ledger.options.driver.name}' has no introspection to read the child's row.`,
      { step: name },
    );
  }
  return introspect;
}
