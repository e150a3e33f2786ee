import type { JobsLogger } from '@x/jobs-core';
import { errorCode } from '@x/jobs-core';
import type { EnqueueRequest, EnqueueResult, ScheduleStore } from '@x/jobs-core/driver';
import { planCatchUp } from './catch-up.js';
import { occurrenceRequests } from './occurrence-requests.js';
import type { TaskSpec } from './task-spec.js';

/** What one round did for one task. */
export type TaskDispatch =
  /** First sight of the task (no watermark): nothing fired, the watermark set to now. */
  | { readonly task: string; readonly outcome: 'initialized'; readonly watermark: number }
  /** Paused: not dispatched, the watermark left where it was. */
  | { readonly task: string; readonly outcome: 'paused' }
  /** Nothing due; `nextAt` is the next occurrence (epoch ms), null when the pattern ran out. */
  | { readonly task: string; readonly outcome: 'idle'; readonly nextAt: number | null }
  /** Occurrences fired and the watermark moved. */
  | {
      readonly task: string;
      readonly outcome: 'fired';
      /** The occurrences fired (epoch ms), oldest first. */
      readonly occurrences: readonly number[];
      /** Due occurrences the walk found; `capped` when more lay beyond `maxCatchUp` (dropped). */
      readonly due: number;
      readonly capped: boolean;
      readonly watermark: number;
      /** Rows written, and requests that met a live row with the same occurrence key. */
      readonly enqueued: number;
      readonly deduped: number;
    }
  /** Another node moved the watermark first: this node fired nothing. */
  | { readonly task: string; readonly outcome: 'lost-race' }
  /**
   * The entries could not be built (`stage: 'entries'`, watermark untouched), the store failed
   * (`'state'`), or the enqueue failed after the watermark moved (`'enqueue'`; `reverted` says
   * whether the watermark was put back so the next round retries).
   */
  | {
      readonly task: string;
      readonly outcome: 'failed';
      readonly stage: 'entries' | 'state' | 'enqueue';
      readonly code: string | undefined;
      readonly reverted?: boolean;
    };

/** What {@link dispatchTask} works with. */
export interface DispatchContext {
  readonly state: ScheduleStore;
  /** Writes requests (at most 1,000 per call) to the scheduler's driver. */
  readonly send: (requests: readonly EnqueueRequest[]) => Promise<readonly EnqueueResult[]>;
  readonly logger: JobsLogger;
}

const SEND_BATCH = 1_000;

/**
 * Runs one round for one task at `now`. The order is what makes an occurrence fire at most once
 * across nodes: build the requests (a bad input fails before anything moves), then move the
 * watermark with a compare-and-set (the node that loses fires nothing), then enqueue under
 * occurrence-scoped keys. If the enqueue fails, the watermark is put back (compare-and-set again)
 * so the next round retries; entries that had landed dedupe on their key while still live.
 */
export async function dispatchTask(
  context: DispatchContext,
  task: string,
  spec: TaskSpec,
  now: number,
): Promise<TaskDispatch> {
  const { state, logger } = context;
  const stored = await state.get(task);
  if (stored?.paused === true) return { task, outcome: 'paused' };
  const watermark = stored?.watermark ?? null;
  if (watermark === null) {
    const moved = await state.advance(task, null, now);
    if (!moved) return { task, outcome: 'lost-race' };
    logger.log('info', 'scheduler.task.initialized', { task, watermark: iso(now) });
    return { task, outcome: 'initialized', watermark: now };
  }
  const plan = planCatchUp({
    schedule: spec.schedule,
    watermark,
    now,
    catchUp: spec.catchUp,
    maxCatchUp: spec.maxCatchUp,
  });
  if (plan === null) return { task, outcome: 'idle', nextAt: spec.schedule.nextAfter(watermark) };

  let requests: readonly EnqueueRequest[];
  try {
    requests = occurrenceRequests(task, spec, plan.fire);
  } catch (error) {
    logger.log('error', 'scheduler.task.entries_failed', {
      task,
      code: errorCode(error),
      error: message(error),
    });
    return { task, outcome: 'failed', stage: 'entries', code: errorCode(error) };
  }
  if (!(await state.advance(task, watermark, plan.watermark))) return { task, outcome: 'lost-race' };

  let results: EnqueueResult[];
  try {
    results = [];
    for (let start = 0; start < requests.length; start += SEND_BATCH) {
      results.push(...(await context.send(requests.slice(start, start + SEND_BATCH))));
    }
  } catch (error) {
    const reverted = await state.advance(task, plan.watermark, watermark).catch(() => false);
    logger.log('error', 'scheduler.task.enqueue_failed', {
      task,
      occurrences: plan.fire.map(iso),
      code: errorCode(error),
      error: message(error),
      reverted,
    });
    return { task, outcome: 'failed', stage: 'enqueue', code: errorCode(error), reverted };
  }
  const deduped = results.filter((result) => result.deduped).length;
  if (plan.capped) {
    logger.log('warn', 'scheduler.catch_up.capped', {
      task,
      maxCatchUp: spec.maxCatchUp,
      catchUp: spec.catchUp,
      droppedUntil: iso(plan.watermark),
    });
  }
  logger.log('info', 'scheduler.task.fired', {
    task,
    occurrences: plan.fire.map(iso),
    due: plan.due,
    enqueued: results.length - deduped,
    deduped,
  });
  return {
    task,
    outcome: 'fired',
    occurrences: plan.fire,
    due: plan.due,
    capped: plan.capped,
    watermark: plan.watermark,
    enqueued: results.length - deduped,
    deduped,
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
