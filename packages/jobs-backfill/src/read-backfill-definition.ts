import { backfillError } from './errors.js';

/** The default rows per page. */
export const DEFAULT_BACKFILL_BATCH = 1000;
/** The default throttle: 5 batches per second (one page every 200 ms). */
export const DEFAULT_BACKFILL_RATE = 5;

function invalid(field: string, message: string): never {
  throw backfillError('X_BACKFILL_DECLARATION_INVALID', message, { field });
}

/** A declared `name`: a non-empty string, required. */
export function readName(owner: string, name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    invalid('name', `${owner}: name is required, a non-empty string (it is the durable key).`);
  }
  return name;
}

/** `batch`: a positive safe integer, refused here rather than on the fourth attempt. */
export function readBatch(batch: unknown): number {
  if (batch === undefined) return DEFAULT_BACKFILL_BATCH;
  if (typeof batch !== 'number' || !Number.isSafeInteger(batch) || batch < 1) {
    invalid('batch', `backfill(): batch must be a positive integer (got ${String(batch)}).`);
  }
  return batch;
}

/** `rate`: batches per second, finite and positive. There is no unthrottled value. */
export function readRate(rate: unknown): number {
  if (rate === undefined) return DEFAULT_BACKFILL_RATE;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) {
    invalid(
      'rate',
      `backfill(): rate is batches per second, finite and positive (got ${String(rate)}); raise it to go faster.`,
    );
  }
  return rate;
}

/** `requires`: one migration id or several, as a list. */
export function readRequires(requires: unknown): readonly string[] {
  if (requires === undefined) return [];
  const list = typeof requires === 'string' ? [requires] : requires;
  if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' || id === '')) {
    invalid('requires', 'backfill(): requires is a migration id or a list of them.');
  }
  return [...(list as string[])];
}

/** `environments`: a non-empty list of names, or undefined for every environment. */
export function readEnvironments(environments: unknown): readonly string[] | null {
  if (environments === undefined) return null;
  if (
    !Array.isArray(environments) ||
    environments.length === 0 ||
    environments.some((name) => typeof name !== 'string' || name === '')
  ) {
    invalid('environments', 'backfill(): environments is a non-empty list of names (omit it for every one).');
  }
  return [...(environments as string[])];
}

/** A required or optional function field. */
export function readFunction(field: string, value: unknown, required: boolean): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'function') invalid(field, `backfill(): ${field} must be a function.`);
}

/** Exactly one of `pages` and `source`; a source is `{ query, key }`. */
export function readSourceChoice(pages: unknown, source: unknown): 'pages' | 'source' {
  if ((pages === undefined) === (source === undefined)) {
    throw backfillError(
      'X_BACKFILL_SOURCE_INVALID',
      'backfill(): declare exactly one of pages (any source) and source (a Kysely select and its key).',
      { field: 'pages' },
    );
  }
  if (pages !== undefined) {
    readFunction('pages', pages, true);
    return 'pages';
  }
  const { query, key } = (source ?? {}) as { query?: unknown; key?: unknown };
  if (typeof query !== 'function' || typeof key !== 'string' || key === '') {
    throw backfillError(
      'X_BACKFILL_SOURCE_INVALID',
      "backfill(): source is { query: ({ ctx, input }) => db.selectFrom(…), key: 'id' }.",
      { field: 'source' },
    );
  }
  return 'source';
}

/** `input` and `scope` come together: a scope input without a scope name would share one ledger row. */
export function readScope(input: unknown, scope: unknown): boolean {
  if ((input === undefined) !== (scope === undefined)) {
    invalid('scope', 'backfill(): input and scope come together (scope names the pass of each input).');
  }
  if (scope !== undefined) readFunction('scope', scope, true);
  return scope !== undefined;
}
