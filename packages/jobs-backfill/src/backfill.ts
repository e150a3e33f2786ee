import { type JobHandle, job, jsonLinesLogger } from '@x/jobs-core';
import { z } from 'zod';
import { backfillChecksum } from './backfill-checksum.js';
import type { BackfillDefinition, BackfillJobInput, BackfillResult } from './backfill-definition.js';
import { runBackfillPass } from './backfill-pass.js';
import { type BackfillDeclaration, recordBackfill } from './backfill-registry.js';
import { readCount } from './count-check.js';
import { registerBackfillErrorRetry } from './errors.js';
import { keysetPages } from './keyset-source.js';
import { systemPaceTimer } from './pace-timer.js';
import {
  readBatch,
  readEnvironments,
  readFunction,
  readName,
  readRate,
  readRequires,
  readScope,
  readSourceChoice,
} from './read-backfill-definition.js';

/** The handle `backfill()` answers: a real job handle, registered by `defineJobs` like any job. */
export type BackfillHandle<Schema extends z.ZodType> = JobHandle<
  BackfillJobInput<z.output<Schema>>,
  BackfillResult,
  BackfillJobInput<z.input<Schema>>
>;

/**
 * Declares a backfill: one pass over every row a source yields, as a job. Each page is one durable
 * step `batch:<n>` checkpointed as `{ cursor, rows }` (never the rows), so a killed worker's run
 * resumes on the page it stopped at; pages are keyset (`pages`, or a Kysely `source` and its key),
 * paced at `rate` batches per second inside the step. The idempotency key is the ledger name, so
 * re-enqueueing a live pass is that pass. Everything invalid is refused here with
 * `X_BACKFILL_DECLARATION_INVALID` / `X_BACKFILL_SOURCE_INVALID`; a `name` another job holds is
 * core's `X_JOB_DUPLICATE`.
 *
 * ```ts
 * export const rewriteSlugs = backfill({
 *   name: 'rewrite-slugs',
 *   tenant: 'none',
 *   source: { query: ({ ctx }) => ctx.db.selectFrom('posts').selectAll(), key: 'id' },
 *   handle: ({ rows, ctx }) => ctx.posts.upsertSlugs(rows),
 * });
 * await rewriteSlugs.enqueue({});
 * ```
 */
export function backfill<Row, Schema extends z.ZodType = z.ZodUndefined>(
  definition: BackfillDefinition<Row, Schema>,
): BackfillHandle<Schema> {
  registerBackfillErrorRetry();
  const name = readName('backfill()', definition?.name);
  const batch = readBatch(definition.batch);
  const rate = readRate(definition.rate);
  const requires = readRequires(definition.requires);
  const environments = readEnvironments(definition.environments);
  const sourceKind = readSourceChoice(definition.pages, definition.source);
  readFunction('handle', definition.handle, true);
  readFunction('count', definition.count, false);
  const scoped = readScope(definition.input, definition.scope);
  const { scope, count, source } = definition;
  type Input = z.output<Schema>;
  const ledgerName = (input: Input): string => (scope === undefined ? name : `${name}:${scope(input)}`);
  const pages = sourceKind === 'pages' ? definition.pages! : keysetPages(source!);
  const checksum = backfillChecksum({
    name,
    functions: [definition.pages, source?.query, source?.cursorOf, definition.handle, count, scope],
    key: source?.key ?? null,
    requires,
  });

  // The job's own input: `force`, plus the scope input when declared.
  const schema = z.object({
    force: z.boolean().optional(),
    ...(definition.input === undefined ? {} : { input: definition.input }),
  }) as unknown as z.ZodType<{ force?: boolean; input?: unknown }>;
  const tenant = definition.tenant;
  const handle = job({
    name,
    input: schema,
    idempotencyKey: (jobInput) => ledgerName(jobInput.input as Input),
    tenant: typeof tenant === 'function' ? (jobInput) => tenant(jobInput.input as Input) : (tenant as 'none'),
    ...(definition.retry === undefined ? {} : { retry: definition.retry }),
    ...(definition.queue === undefined ? {} : { queue: definition.queue }),
    ...(definition.priority === undefined ? {} : { priority: definition.priority }),
    ...(definition.timeout === undefined ? {} : { timeout: definition.timeout }),
    ...(definition.stepTimeout === undefined ? {} : { stepTimeout: definition.stepTimeout }),
    run: (args) =>
      runBackfillPass<Row, Input>(
        {
          name,
          checksum,
          batch,
          rate,
          environments,
          pages,
          handle: definition.handle,
          count,
          ledgerName,
          logger: definition.logger ?? jsonLinesLogger(),
          timer: definition.timer ?? systemPaceTimer,
        },
        args as never,
      ),
  }) as unknown as BackfillHandle<Schema>;

  const declaration: BackfillDeclaration = Object.freeze({
    kind: 'backfill',
    name,
    checksum,
    requires,
    environments,
    counts: count !== undefined,
    scoped,
    batch,
    rate,
    queue: handle.queue,
  });
  recordBackfill({
    declaration,
    handle,
    ledgerName: (input) => ledgerName(parseScopeInput(definition.input, input)),
    ...(count === undefined
      ? {}
      : {
          count: async (input, ctx, signal) =>
            readCount(name, await count({ input: parseScopeInput(definition.input, input), ctx, signal })),
        }),
  });
  return handle;
}

/** The scope input parsed by the declared schema (the CLI passes raw JSON). */
function parseScopeInput<Schema extends z.ZodType>(
  schema: Schema | undefined,
  input: unknown,
): z.output<Schema> {
  return (schema === undefined ? undefined : schema.parse(input)) as z.output<Schema>;
}
