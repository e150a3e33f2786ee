import {
  type Clock,
  errorCode,
  isStepSuspension,
  type JobsLogger,
  type JsonValue,
  maybeJobDriver,
  type RunArgs,
  systemClock,
} from '@x/jobs-core';
import type { BackfillCountArgs, BackfillHandleArgs, BackfillResult } from './backfill-definition.js';
import { backfillEnvironment, environmentAllows } from './backfill-environment.js';
import type { BackfillPage, BackfillPagesArgs } from './backfill-page.js';
import { readCount } from './count-check.js';
import { backfillError } from './errors.js';
import type { PaceTimer } from './pace-timer.js';
import { Pacer } from './pacer.js';
import { PassLedger } from './pass-ledger.js';

/** A page's checkpoint: the cursor after it and how many rows it held, never the rows. */
export interface BatchCheckpoint {
  readonly cursor: JsonValue | null;
  readonly rows: number;
}

/** The checkpoint as handed to `step.run`: typed loosely so its JSON form stays cheap to compute. */
interface StoredCheckpoint {
  readonly cursor: unknown;
  readonly rows: number;
}

/** Everything a pass needs from its declaration, resolved. */
export interface PassPlan<Row, Input> {
  readonly name: string;
  readonly checksum: string;
  readonly batch: number;
  readonly rate: number;
  readonly environments: readonly string[] | null;
  readonly pages: (args: BackfillPagesArgs<Input>) => Promise<BackfillPage<Row>>;
  readonly handle: (args: BackfillHandleArgs<Row, Input>) => unknown;
  readonly count: ((args: BackfillCountArgs<Input>) => number | Promise<number>) | undefined;
  readonly ledgerName: (input: Input) => string;
  readonly logger: JobsLogger;
  readonly timer: PaceTimer;
}

/**
 * One pass, as a job body: the environment rail, the ledger, then one `batch:<n>` step per page
 * (throttled inside the step, checkpointed as a cursor and a count), then the `count` check.
 * A resumed run replays the stored checkpoints without reading a page and reopens at the cursor
 * the last one left; the ledger and the clock come from the ambient driver (`setJobDriver`).
 */
export async function runBackfillPass<Row, Input>(
  plan: PassPlan<Row, Input>,
  { input: jobInput, step, ctx }: RunArgs<{ force?: boolean; input?: Input }>,
): Promise<BackfillResult> {
  const input = jobInput.input as Input;
  const name = plan.ledgerName(input);
  const environment = backfillEnvironment();
  if (!environmentAllows(plan.environments, environment)) {
    throw backfillError(
      'X_BACKFILL_ENVIRONMENT',
      `Backfill '${name}' runs in ${(plan.environments ?? []).join(', ')}, not in '${environment}'.`,
      { name, environment, environments: plan.environments },
    );
  }
  const driver = maybeJobDriver();
  const clock: Clock = driver ?? systemClock;
  const ledger = new PassLedger(
    driver?.backfills,
    clock,
    { name, runId: ctx.runId, checksum: plan.checksum },
    plan.logger,
  );
  const opening = await ledger.open(jobInput.force === true);
  if (opening.skip) {
    return { name, batches: 0, rows: 0, skipped: true, previousRunId: opening.previousRunId, cursor: null };
  }

  const pacer = new Pacer(plan.rate, plan.timer);
  let cursor: JsonValue | null = null;
  let lastCursor: JsonValue | null = null;
  let rows = 0;
  let index = 0;
  try {
    for (;;) {
      const page: number = index;
      const from: JsonValue | null = cursor;
      const done = (await step.run(`batch:${page}`, async (signal): Promise<StoredCheckpoint> => {
        await pacer.next(signal);
        const answer = await plan.pages({ cursor: from, signal, input, batch: plan.batch, ctx });
        const read = checkPage<Row>(name, page, answer);
        if (read.rows.length > 0) await plan.handle({ rows: read.rows, signal, input, index: page, ctx });
        await ledger.progress(rows + read.rows.length, read.next ?? from);
        return { cursor: read.next, rows: read.rows.length };
      })) as BatchCheckpoint;
      rows += done.rows;
      index += 1;
      if (done.cursor === null) break;
      cursor = done.cursor;
      lastCursor = done.cursor;
    }
    if (plan.count !== undefined) {
      const remaining = readCount(name, await plan.count({ input, signal: ctx.signal, ctx }));
      if (remaining > 0) {
        throw backfillError(
          'X_BACKFILL_STALLED',
          `Backfill '${name}' ran out of pages while count() still matches ${remaining} row(s): source and count disagree.`,
          { name, remaining, rows },
        );
      }
    }
    await ledger.complete(rows, lastCursor);
    return { name, batches: index, rows, skipped: false, cursor: lastCursor };
  } catch (error) {
    // A drain hands the run back uncounted and a suspension is control flow: the pass goes on.
    if (!isStepSuspension(error) && errorCode(error) !== 'X_DRAINING') await ledger.fail(rows, lastCursor);
    throw error;
  }
}

/** A page as the contract says: `{ rows: [...], next }` with a JSON cursor. */
function checkPage<Row>(name: string, index: number, page: unknown): BackfillPage<Row> {
  const candidate = page as Partial<BackfillPage<Row>> | null;
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    !Array.isArray(candidate.rows) ||
    candidate.next === undefined
  ) {
    throw backfillError(
      'X_BACKFILL_SOURCE_INVALID',
      `Backfill '${name}': page ${index} must be { rows: [...], next: cursor | null }.`,
      { name, index },
    );
  }
  return candidate as BackfillPage<Row>;
}
