import type {
  AttemptErrorRecord,
  JobDetail,
  JobErrorRecord,
  JobRecord,
  JsonValue,
  StepStatus,
} from '@x/jobs-core';
import { redactJson, redactText } from '@x/jobs-core';
import { dashboardError } from '../errors.js';
import { type TimelineEntry, toTimeline } from './timeline.js';
import { whyStopped } from './why-stopped.js';

/** One step of a job's run. Times are epoch ms. */
export interface StepView {
  readonly name: string;
  readonly position: number;
  readonly status: StepStatus;
  readonly startedAt: number;
  readonly completedAt: number | null;
  /** `completedAt - startedAt` once completed, else null. */
  readonly durationMs: number | null;
  readonly error: JobErrorRecord | null;
  /** The step's persisted output, redacted like the input. */
  readonly output: JsonValue;
}

/**
 * The job of `x-jobs show --json` and the dashboard's job page: the row's fields (payload and
 * result redacted), its steps, its timeline, and a sentence saying why it stopped.
 */
export interface JobDetailView extends Omit<JobRecord, 'payload' | 'result'> {
  /** The input, with sensitive keys' values replaced by `[redacted]`. */
  readonly payload: JsonValue;
  /** What `run` returned, redacted the same way. */
  readonly result: JsonValue;
  readonly steps: readonly StepView[];
  /**
   * Every failed attempt the row keeps, oldest first: class, code, message, stack and causes
   * (redacted again with the extra keys: core redacted them with the default list when it recorded
   * them), the step that threw, the attempt and when.
   */
  readonly errors: readonly AttemptErrorRecord[];
  /** Enqueue, attempts, steps and the ending in time order. */
  readonly timeline: readonly TimelineEntry[];
  /** Why the run is where it is (dead, cancelled, waiting, …); null for a row that simply waits or runs. */
  readonly stopped: string | null;
}

/** The `--json` shape of `x-jobs show`. */
export interface ShowJson {
  readonly job: JobDetailView;
}

/** A job detail with every payload-carrying field redacted (`extraKeys` add to the default list). */
export function toJobDetailView(detail: JobDetail, extraKeys: readonly string[] = []): JobDetailView {
  const { steps, payload, result, errors, ...row } = detail;
  const stepViews = [...steps]
    .sort((a, b) => a.position - b.position)
    .map((step) => ({
      name: step.name,
      position: step.position,
      status: step.status,
      startedAt: step.startedAt,
      completedAt: step.completedAt,
      durationMs: step.completedAt === null ? null : Math.max(0, step.completedAt - step.startedAt),
      error: step.error,
      output: redactJson(step.output ?? null, extraKeys),
    }));
  return {
    ...row,
    payload: redactJson(payload, extraKeys),
    result: redactJson(result ?? null, extraKeys),
    steps: stepViews,
    errors: errors.map((error) => redactAttemptError(error, extraKeys)),
    timeline: toTimeline(detail, stepViews),
    stopped: whyStopped(detail),
  };
}

/** An attempt's error with its messages and stacks redacted with `extraKeys` too. */
function redactAttemptError(error: AttemptErrorRecord, extraKeys: readonly string[]): AttemptErrorRecord {
  if (extraKeys.length === 0) return error;
  const text = (value: string): string => redactText(value, extraKeys);
  const stack = (value: string | null): string | null => (value === null ? null : text(value));
  return {
    ...error,
    message: text(error.message),
    stack: stack(error.stack),
    causes: error.causes.map((cause) => ({
      ...cause,
      message: text(cause.message),
      stack: stack(cause.stack),
    })),
  };
}

/**
 * The redacted detail view of job `id`, or null when no row has it.
 * An empty id is `X_DASHBOARD_BAD_REQUEST`.
 */
export async function readJobDetail(
  introspect: { get(id: string): Promise<JobDetail | null> },
  id: string,
  extraKeys: readonly string[] = [],
): Promise<JobDetailView | null> {
  if (id.trim() === '')
    throw dashboardError('X_DASHBOARD_BAD_REQUEST', 'The job id is empty.', { field: 'id' });
  const detail = await introspect.get(id);
  return detail === null ? null : toJobDetailView(detail, extraKeys);
}
