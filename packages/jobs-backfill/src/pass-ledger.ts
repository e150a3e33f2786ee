import type { Clock, JobsLogger, JsonValue } from '@x/jobs-core';
import type { BackfillLedger, BackfillRecord, BackfillStatus } from '@x/jobs-core/driver';

/** Who a pass is, for its ledger row. */
export interface PassIdentity {
  /** The ledger name: `<name>` or `<name>:<scope>`. */
  readonly name: string;
  readonly runId: string;
  readonly checksum: string;
}

/** How a pass opened: run it, or skip it because a completed row exists. */
export type PassOpening = { readonly skip: false } | { readonly skip: true; readonly previousRunId: string };

/**
 * One pass's bookkeeping in `driver.backfills`. The row is a report, never a resume source (the
 * step checkpoints are). Without a ledger every call is a no-op and the pass runs anyway.
 */
export class PassLedger {
  readonly #ledger: BackfillLedger | undefined;
  readonly #clock: Clock;
  readonly #who: PassIdentity;
  readonly #logger: JobsLogger;
  #startedAt = 0;

  constructor(ledger: BackfillLedger | undefined, clock: Clock, who: PassIdentity, logger: JobsLogger) {
    this.#ledger = ledger;
    this.#clock = clock;
    this.#who = who;
    this.#logger = logger;
  }

  /**
   * Opens the pass. A retry adopts its own row (its `startedAt` is when the pass began); otherwise
   * only a completed row blocks, unless `force`; a running or failed row never does. A checksum
   * that moved since the newest row is a warning, not a refusal.
   */
  async open(force: boolean): Promise<PassOpening> {
    const ledger = this.#ledger;
    if (ledger === undefined) return { skip: false };
    const { name, runId, checksum } = this.#who;
    const own = await ledger.get(name, runId);
    if (own !== null) {
      this.#startedAt = own.startedAt;
      await this.#write('running', own.rowsProcessed, own.cursor, null);
      return { skip: false };
    }
    if (!force) {
      const [completed] = await ledger.list({ name, status: 'completed', limit: 1 });
      if (completed !== undefined) {
        this.#logger.log('info', 'backfill.skipped', { name, runId, previousRunId: completed.runId });
        return { skip: true, previousRunId: completed.runId };
      }
    }
    const [newest] = await ledger.list({ name, limit: 1 });
    if (newest !== undefined && newest.checksum !== checksum) {
      this.#logger.log('warn', 'backfill.checksum.moved', {
        name,
        runId,
        previous: newest.checksum,
        checksum,
        previousRunId: newest.runId,
      });
    }
    this.#startedAt = this.#clock.now();
    await this.#write('running', 0, null, null);
    return { skip: false };
  }

  /** Records the rows and cursor after a page. */
  progress(rows: number, cursor: JsonValue | null): Promise<void> {
    return this.#write('running', rows, cursor, null);
  }

  /** Marks the pass completed. */
  complete(rows: number, cursor: JsonValue | null): Promise<void> {
    return this.#write('completed', rows, cursor, this.#clock.now());
  }

  /** Marks the attempt failed (a retry adopts the row again). Never throws: the pass's error wins. */
  async fail(rows: number, cursor: JsonValue | null): Promise<void> {
    await this.#write('failed', rows, cursor, null).catch((error: unknown) =>
      this.#logger.log('warn', 'backfill.ledger.failed', {
        name: this.#who.name,
        runId: this.#who.runId,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  async #write(
    status: BackfillStatus,
    rowsProcessed: number,
    cursor: JsonValue | null,
    completedAt: number | null,
  ): Promise<void> {
    if (this.#ledger === undefined) return;
    const row: BackfillRecord = {
      name: this.#who.name,
      runId: this.#who.runId,
      checksum: this.#who.checksum,
      status,
      rowsProcessed,
      cursor,
      startedAt: this.#startedAt,
      completedAt,
    };
    await this.#ledger.record(row);
  }
}
