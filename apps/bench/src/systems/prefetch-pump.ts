import { sleep } from '../clock.js';

/** Where a {@link PrefetchPump} takes jobs from and hands them back to. */
export interface PumpSource<J> {
  /** Takes up to `max` due jobs in one round trip; never waits for new ones. */
  fetch(max: number): Promise<readonly J[]>;
  /** Waits for new work (a wake signal or a blocking pop, bounded by a poll interval); may return jobs. */
  idle(): Promise<readonly J[]>;
  /** Ends an `idle()` wait at once: the pump is stopping. */
  interrupt(): void;
  /** Settles finished jobs in one round trip (absent: nothing to settle). */
  settle?(jobs: readonly J[]): Promise<void>;
  /** Hands back jobs that were taken but never run (on stop). */
  release?(jobs: readonly J[]): Promise<void>;
}

/** Options for {@link PrefetchPump}. */
export interface PumpOptions<J> {
  /** Handlers in flight at most. */
  readonly concurrency: number;
  /** Jobs taken per fetch at most. */
  readonly batch: number;
  /** Runs one job. */
  readonly run: (job: J) => void | Promise<void>;
}

/**
 * The least machinery a batching worker needs, used by the raw-pg and raw-redis limits: one fetch
 * loop keeps a local buffer topped up (a fetch whenever fewer than `concurrency` jobs wait),
 * `concurrency` handlers drain it, and finished jobs are settled in groups — one settle in flight,
 * the next one taking everything that finished meanwhile.
 */
export class PrefetchPump<J> {
  private buffer: J[] = [];
  private active = 0;
  private finished: J[] = [];
  private settling: Promise<void> | null = null;
  private stopping = false;
  private wakeFetcher: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];
  private readonly loop: Promise<void>;

  constructor(
    private readonly source: PumpSource<J>,
    private readonly options: PumpOptions<J>,
  ) {
    this.loop = this.fetchLoop();
  }

  /** Stops fetching, hands back buffered jobs, waits for handlers in flight and the last settle. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeFetcher?.();
    this.source.interrupt();
    await this.loop;
    const unrun = this.buffer.splice(0);
    if (unrun.length > 0) await this.source.release?.(unrun);
    while (this.active > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    while (this.settling || this.finished.length > 0) {
      this.flush();
      await this.settling;
    }
  }

  private async fetchLoop(): Promise<void> {
    while (!this.stopping) {
      if (this.buffer.length >= this.options.concurrency) {
        await new Promise<void>((resolve) => {
          this.wakeFetcher = resolve;
        });
        continue;
      }
      try {
        let jobs = await this.source.fetch(this.options.batch);
        if (jobs.length === 0 && !this.stopping) jobs = await this.source.idle();
        for (const job of jobs) this.buffer.push(job);
        this.dispatch();
      } catch (error) {
        if (this.stopping) break;
        console.error('prefetch pump: fetch failed', error);
        await sleep(100);
      }
    }
  }

  private dispatch(): void {
    while (this.active < this.options.concurrency && this.buffer.length > 0) {
      const job = this.buffer.shift() as J;
      this.active += 1;
      void this.runOne(job);
    }
    if (this.buffer.length < this.options.concurrency && this.wakeFetcher) {
      const wake = this.wakeFetcher;
      this.wakeFetcher = null;
      wake();
    }
  }

  private async runOne(job: J): Promise<void> {
    try {
      await this.options.run(job);
    } catch (error) {
      console.error('prefetch pump: handler failed', error);
    }
    this.active -= 1;
    this.finished.push(job);
    this.flush();
    if (this.active === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    if (!this.stopping) this.dispatch();
  }

  private flush(): void {
    if (this.settling || this.finished.length === 0) return;
    const jobs = this.finished;
    this.finished = [];
    const settle = this.source.settle;
    if (!settle) return;
    this.settling = settle
      .call(this.source, jobs)
      .catch((error: unknown) => console.error('prefetch pump: settle failed', error))
      .finally(() => {
        this.settling = null;
        this.flush();
      });
  }
}
