import { errorCode } from '@x/jobs-core';
import type { BackfillLedger } from '@x/jobs-core/driver';
import type { BackfillApp } from './backfill-session.js';
import type { BackfillRunView, FailureView } from './backfill-views.js';

export type { BackfillRunView, FailureView } from './backfill-views.js';

/** What one name is swept with. */
export interface SweepRequest {
  readonly name: string;
  readonly write: boolean;
  readonly force: boolean;
  /** The scope input (`--input`), for a scoped backfill. */
  readonly input: unknown;
  readonly environment: string;
  readonly ledger: BackfillLedger | undefined;
}

const failure = (error: unknown): FailureView => ({
  code: errorCode(error) ?? 'ERROR',
  message: error instanceof Error ? error.message : String(error),
});

/**
 * Dry-runs or enqueues one declared backfill, never throwing: what failed is in the view, so
 * `--all` goes on to the next name. `--write` gates, then enqueues; it never runs the pass inline
 * (the workers sweep).
 */
export async function sweepBackfill(app: BackfillApp, request: SweepRequest): Promise<BackfillRunView> {
  const { backfills } = app;
  const found = backfills.findBackfill(request.name);
  let view: BackfillRunView = {
    name: request.name,
    ledgerName: null,
    state: null,
    count: null,
    unchecked: [],
    refusal: null,
    enqueued: null,
    error: null,
  };
  if (found === undefined) {
    return {
      ...view,
      error: { code: 'X_BACKFILL_NOT_FOUND', message: `No backfill named '${request.name}'.` },
    };
  }
  try {
    const ledgerName = found.ledgerName(request.input);
    const runs = (await request.ledger?.list({ name: ledgerName, limit: 1000 })) ?? [];
    const [row] = backfills.pendingBackfills({
      declarations: [found.declaration],
      runs,
      environment: request.environment,
    }).rows;
    view = { ...view, ledgerName, state: row?.state ?? null };
    if (found.count !== undefined) {
      view = { ...view, count: await found.count(request.input, app.context, AbortSignal.timeout(60_000)) };
    }
    try {
      const gate = backfills.gateBackfill({
        declaration: found.declaration,
        ledgerName,
        environment: request.environment,
        runs,
        appliedMigrations: app.appliedMigrations,
        force: request.force,
      });
      view = { ...view, unchecked: gate.unchecked };
    } catch (error) {
      return { ...view, refusal: failure(error) };
    }
    if (!request.write) return view;
    const input = found.declaration.scoped
      ? { force: request.force, input: request.input }
      : { force: request.force };
    return { ...view, enqueued: await found.handle.enqueue(input) };
  } catch (error) {
    return { ...view, error: failure(error) };
  }
}

/** True when this name failed the command: an error, or a refusal under `--write`. */
export function sweepFailed(view: BackfillRunView, write: boolean): boolean {
  return view.error !== null || (write && view.refusal !== null);
}
