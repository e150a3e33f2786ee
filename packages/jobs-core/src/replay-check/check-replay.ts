import type { JobDetail } from '../driver/job-record.js';
import type { StepRecord } from '../driver/step-store.js';
import { coreError } from '../errors/core-error.js';
import { errorCode } from '../errors/jobs-error.js';
import { definitionOf } from '../job/definition-of.js';
import type { JobContext, JobRunContext } from '../job/job-context.js';
import type { AnyJobHandle } from '../job/job-handle.js';
import { COMPENSATE_STEP_PREFIX, UNWINDING_STEP } from '../job/step-name.js';
import type { JsonValue } from '../json.js';
import type { ReplayCheckResult, ReplayStepRef } from './replay-check-result.js';
import { kindsOf, type ReplayStepKind } from './step-kind.js';

/** The recorded run a check replays: a row and its steps, as `introspect.get` answers them. */
export type ReplayRun = Pick<
  JobDetail,
  'id' | 'runId' | 'name' | 'payload' | 'tenantId' | 'attempts' | 'steps'
>;

/** Options of {@link checkReplay}. */
export interface CheckReplayOptions {
  /** The app services `ctx` carries during the check (stubs: code outside steps runs for real). (Default: none) */
  readonly context?: JobContext;
  /** How long the body may take to reach the end of its history. (Default: 10 s) */
  readonly timeoutMs?: number;
}

/** Thrown into the body by a step call once the check has its verdict; not an `Error`, like a suspension. */
class ReplayEnd {}
const END = new ReplayEnd();

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Replays one recorded run against the current code of its job, in replay-only mode: every step
 * the body asks for is compared, in order, with the run's recorded history (name, then kind) and
 * answers the recorded output — no step function runs, nothing is written, no driver is called.
 * The replay stops at the first step without a completed record (where the run is parked, or the
 * history ends) or when the names, order or kinds part, and answers the first point of divergence.
 *
 * Code outside steps does run, as on any replay: it gets `ctx` = `options.context` plus the run's
 * ids, an `AbortSignal` aborted at the timeout, and a `progress` that records nothing.
 * Compensation records and the unwinding marker are not steps a body asks for and are skipped.
 */
export async function checkReplay(
  handle: AnyJobHandle,
  run: ReplayRun,
  options: CheckReplayOptions = {},
): Promise<ReplayCheckResult> {
  const definition = definitionOf(handle);
  const history = bodySteps(run.steps);
  const parsed = definition.schema.safeParse(run.payload);
  if (!parsed.success) {
    return failed(0, 'X_JOB_INPUT_INVALID', `the recorded input no longer parses: ${parsed.error.message}`);
  }
  let replayed = 0;
  let verdict: ReplayCheckResult | undefined;
  let decided!: () => void;
  const decision = new Promise<void>((resolve) => {
    decided = resolve;
  });
  const decide = (result: ReplayCheckResult): never => {
    verdict ??= result;
    decided();
    throw END;
  };
  const ask = (asked: ReplayStepRef & { kind: ReplayStepKind }): JsonValue => {
    if (verdict !== undefined) throw END;
    const position = replayed;
    const recorded = history[position];
    if (recorded === undefined) return decide({ status: 'matches', replayed });
    const recordedRef = { name: recorded.name, kind: kindsOf(recorded).join('|') };
    if (recorded.name !== asked.name) {
      const elsewhere = history.findIndex((step) => step.name === asked.name);
      const reason =
        elsewhere === -1
          ? `asks for step '${asked.name}' where the history recorded '${recorded.name}' (another name)`
          : `asks for step '${asked.name}' where the history recorded '${recorded.name}' ('${asked.name}' was recorded at position ${elsewhere}: another order)`;
      return decide({
        status: 'diverges',
        replayed,
        divergence: { position, recorded: recordedRef, asked, reason },
      });
    }
    if (!kindsOf(recorded).includes(asked.kind)) {
      const reason = `asks for '${asked.name}' as a ${asked.kind} step; the history recorded it as ${recordedRef.kind} (another kind)`;
      return decide({
        status: 'diverges',
        replayed,
        divergence: { position, recorded: recordedRef, asked, reason },
      });
    }
    if (recorded.status !== 'completed') return decide({ status: 'matches', replayed });
    replayed += 1;
    return recorded.output;
  };
  const step = replayStepApi(ask, (method) =>
    decide(
      failed(
        replayed,
        'X_REPLAY_CHECK_UNSUPPORTED',
        `the body calls step.${method}, which the check cannot replay`,
      ),
    ),
  );
  const timeout = new AbortController();
  // Without a check context the body gets none of the app's members (an app that declares them
  // required still type-checks here): code outside steps that reads one fails the check.
  const app = options.context ?? ({} as JobContext);
  const ctx: JobRunContext = {
    ...app,
    signal: timeout.signal,
    actor: { id: `job:${run.name}`, orgId: run.tenantId },
    jobId: run.id,
    runId: run.runId,
    name: run.name,
    attempt: run.attempts + 1,
  };
  const timer = setTimeout(() => {
    timeout.abort(coreError('X_REPLAY_CHECK_TIMEOUT', 'the replay check timed out'));
    verdict ??= failed(
      replayed,
      'X_REPLAY_CHECK_TIMEOUT',
      'the body did not reach the end of its history in time',
    );
    decided();
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let body: Promise<unknown>;
  try {
    body = Promise.resolve(
      definition.run({ input: parsed.data, ctx, step, finalAttempt: false, progress: () => {} } as never),
    );
  } catch (error) {
    body = Promise.reject(error);
  }
  const ended = body.then(
    () => {
      const next = history[replayed];
      if (next === undefined) return { status: 'matches', replayed } as const;
      const recorded = { name: next.name, kind: kindsOf(next).join('|') };
      const reason = `the code finishes without asking for recorded step '${next.name}'`;
      return {
        status: 'diverges',
        replayed,
        divergence: { position: replayed, recorded, asked: null, reason },
      } as const;
    },
    (error: unknown) =>
      error === END
        ? undefined
        : failed(
            replayed,
            errorCode(error) ?? 'ERROR',
            error instanceof Error ? error.message : String(error),
          ),
  );
  const outcome = await Promise.race([ended, decision.then(() => undefined)]);
  clearTimeout(timer);
  return verdict ?? outcome ?? failed(replayed, 'ERROR', 'the check reached no verdict');
}

/** The steps a body asks for, in recorded order (compensations and the unwinding marker are the executor's). */
function bodySteps(steps: readonly StepRecord[]): readonly StepRecord[] {
  return steps
    .filter((step) => step.name !== UNWINDING_STEP && !step.name.startsWith(COMPENSATE_STEP_PREFIX))
    .sort((a, b) => a.position - b.position);
}

function failed(replayed: number, code: string, message: string): ReplayCheckResult {
  return { status: 'failed', replayed, error: { code, message } };
}

/**
 * A step API that answers from the history through `ask` and runs nothing. A method it does not
 * know (a step kind added later) ends the check through `unsupported` instead of a TypeError.
 */
function replayStepApi(
  ask: (asked: { name: string; kind: ReplayStepKind }) => JsonValue,
  unsupported: (method: string) => never,
): object {
  const later = <T>(answer: () => T): Promise<T> => Promise.resolve().then(answer);
  const api: Record<string, unknown> = {
    run: (name: string) => later(() => ask({ name, kind: 'run' })),
    sleep: (nameOrDuration: unknown, duration?: unknown) =>
      later(() => {
        const name = duration === undefined ? `sleep:${String(nameOrDuration)}` : String(nameOrDuration);
        ask({ name, kind: 'sleep' });
      }),
    sleepUntil: (name: string) =>
      later(() => {
        ask({ name, kind: 'sleep' });
      }),
    waitForEvent: (name: string, _event: string, options?: { schema?: { safeParse(v: unknown): unknown } }) =>
      later(() => {
        const output = ask({ name, kind: 'waitForEvent' });
        if (output === null || typeof output !== 'object' || Array.isArray(output)) return null;
        const payload = (output as { payload?: JsonValue }).payload ?? null;
        const checked = options?.schema?.safeParse(payload) as
          | { success: boolean; data?: unknown }
          | undefined;
        return checked?.success === true ? checked.data : payload;
      }),
  };
  return new Proxy(api, {
    get(target, property) {
      if (typeof property === 'string' && !(property in target)) {
        return () => later(() => unsupported(property));
      }
      return Reflect.get(target, property);
    },
  });
}
