import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import type { JobProgress } from '../driver/nack.js';
import type { JobsLogger } from '../telemetry/logger.js';

/**
 * `run({ progress })`: persists at most once a second, plus the last report before the run
 * settles. Writes are fenced like every settle; a failed write is logged, never thrown into the body.
 */
export class ProgressWriter {
  readonly #driver: JobDriver;
  readonly #job: ClaimedJob;
  readonly #logger: JobsLogger;
  #pending: JobProgress | undefined;
  #lastWriteAt = Number.NEGATIVE_INFINITY;
  #writing: Promise<void> = Promise.resolve();

  constructor(driver: JobDriver, job: ClaimedJob, logger: JobsLogger) {
    this.#driver = driver;
    this.#job = job;
    this.#logger = logger;
  }

  /** The function handed to the body. */
  readonly report = (current: number, total?: number): void => {
    if (!Number.isFinite(current)) return;
    this.#pending = { current, total: total === undefined || !Number.isFinite(total) ? null : total };
    if (performance.now() - this.#lastWriteAt >= 1000) this.#write();
  };

  /** Writes the last report if it has not been written. */
  async flush(): Promise<void> {
    if (this.#pending !== undefined) this.#write();
    await this.#writing;
  }

  #write(): void {
    const progress = this.#pending;
    if (progress === undefined) return;
    this.#pending = undefined;
    this.#lastWriteAt = performance.now();
    this.#writing = this.#writing.then(async () => {
      try {
        await this.#driver.progress(this.#job.id, this.#job.claim, progress);
      } catch (error) {
        this.#logger.log('warn', 'jobs.progress.failed', {
          jobId: this.#job.id,
          code: (error as { code?: string }).code,
        });
      }
    });
  }
}
