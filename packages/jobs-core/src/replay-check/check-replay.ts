import type { JobDetail } from '../driver/job-record.js';
import { coreError } from '../errors/core-error.js';
import { errorCode } from '../errors/jobs-error.js';
import { definitionOf } from '../job/definition-of.js';
import type { JobContext, JobRunContext } from '../job/job-context.js';
import type { AnyJobHandle } from '../job/job-handle.js';
import type { JsonValue } from '../values/json.js';
import type { ReplayCheckResult } from './replay-check-result.js';
import { type AskedStep, ReplayHistory } from './replay-history.js';
import { ReplaySchedule } from './replay-schedule.js';
import { replayStepApi } from './replay-step-api.js';

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
 * the body calls (`run`, `sleep`, `sleepUntil`, `waitForEvent`, `invoke`) is compared, in call
 * order, with the run's recorded positions (name, then kind) and answers the recorded output — no
 * step function runs, no child is enqueued, nothing is written, no driver is called. A completed
 * invoke answers the child's recorded result.
 *
 * Parallel steps (`Promise.all` over step calls) are compared by the positions the executor gave
 * them, which are call positions whatever order the steps finished in; the calls in flight are
 * answered earliest-completed record first, so a call made after one of them finished takes the
 * position it took when recorded (see {@link ReplaySchedule}). A divergence inside a fan-out (a
 * parallel step renamed, added, removed or of another kind) is reported at its position.
 *
 * A call whose record is not completed — a parked sleep or wait, an invoke whose child has not
 * finished, a failed step the next attempt runs again — or that lies past the end of the history
 * is where the replay stops: it is never answered, and its siblings in flight are still checked.
 * The verdict is `matches` once nothing is left to answer, `diverges` at the first point where
 * names, order or kinds part. Only a step method the check does not know (a newer step kind) is
 * `X_REPLAY_CHECK_UNSUPPORTED`.
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
  const history = new ReplayHistory(run.steps);
  const parsed = definition.schema.safeParse(run.payload);
  if (!parsed.success) {
    return failed(0, 'X_JOB_INPUT_INVALID', `the recorded input no longer parses: ${parsed.error.message}`);
  }
  const schedule = new ReplaySchedule();
  let verdict: ReplayCheckResult | undefined;
  let decided!: () => void;
  const decision = new Promise<void>((resolve) => {
    decided = resolve;
  });
  const decide = (result: ReplayCheckResult): Promise<never> => {
    verdict ??= result;
    decided();
    return Promise.reject(END);
  };
  const ask = (asked: AskedStep): Promise<JsonValue> => {
    if (verdict !== undefined) return Promise.reject(END);
    const answer = history.compare(asked);
    if (answer.kind === 'diverges') {
      return decide({ status: 'diverges', replayed: schedule.answered, divergence: answer.divergence });
    }
    return new Promise<JsonValue>((resolve, reject) => {
      if (answer.kind === 'stop') schedule.stop();
      else
        schedule.hold(answer.record, () =>
          verdict === undefined ? resolve(answer.record.output) : reject(END),
        );
    });
  };
  const step = replayStepApi(ask, (method) =>
    decide(
      failed(
        schedule.answered,
        'X_REPLAY_CHECK_UNSUPPORTED',
        `the body calls step.${method}, which the check does not know (a newer step kind)`,
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
      schedule.answered,
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
    (): ReplayCheckResult => {
      const divergence = history.unasked();
      return divergence === undefined
        ? { status: 'matches', replayed: schedule.answered }
        : { status: 'diverges', replayed: schedule.answered, divergence };
    },
    (error: unknown) =>
      error === END
        ? undefined
        : failed(
            schedule.answered,
            errorCode(error) ?? 'ERROR',
            error instanceof Error ? error.message : String(error),
          ),
  );
  let settled = false;
  const parked = schedule
    .run(() => verdict !== undefined || settled)
    .then((): ReplayCheckResult => ({ status: 'matches', replayed: schedule.answered }));
  const outcome = await Promise.race([ended, parked, decision.then(() => undefined)]);
  settled = true;
  clearTimeout(timer);
  decided();
  return verdict ?? outcome ?? failed(schedule.answered, 'ERROR', 'the check reached no verdict');
}

function failed(replayed: number, code: string, message: string): ReplayCheckResult {
  return { status: 'failed', replayed, error: { code, message } };
}
