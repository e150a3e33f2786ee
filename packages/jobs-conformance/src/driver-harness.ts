import { randomUUID } from 'node:crypto';
import type { JobDetail, JobDriver, JobIntrospection } from '@x/jobs-core';
import type {
  BackfillLedger,
  ClaimedJob,
  EnqueueRequest,
  EnqueueResult,
  LeaseStore,
  RateLimitStore,
  ScheduleStore,
} from '@x/jobs-core/driver';
import { expect } from 'vitest';

/** A duration no timing case ever lets pass: visibility timeouts and TTLs that must not lapse. */
export const LONG_MS = 3_600_000;

/** What a driver factory hands the suite: the driver, and optionally a clock the suite may move. */
export interface ConformanceSubject {
  readonly driver: JobDriver;
  /**
   * The clock the driver reads (`memoryJobDriver({ clock })`). When present the suite passes time
   * with `clock.advance(ms)`; when absent it waits in real time.
   */
  readonly clock?: { advance(ms: number): unknown };
}

/** Options for one claim made by a case. */
export interface HarnessClaimOptions {
  /** (Default: 10) */
  readonly limit?: number;
  /** (Default: 'conformance-worker') */
  readonly workerId?: string;
  /** (Default: an hour, which no timing case lets pass) */
  readonly visibilityTimeoutMs?: number;
}

/** What every job driver case receives: the driver under test plus small conveniences. */
export interface DriverHarness {
  readonly driver: JobDriver;
  /** A queue name no other case uses. */
  readonly queue: string;
  /** The base duration of timing cases, in ms: short visibility timeouts and TTLs are one tick. */
  readonly tickMs: number;
  /** Lets `ms` pass on the driver's clock: a virtual clock jumps, a real one is waited out. */
  advance(ms: number): Promise<void>;
  /** A fresh name: `${prefix}-${uuid}`. */
  unique(prefix: string): string;
  /** A complete request on `queue` with a fresh id, runId and idempotency key; override any field. */
  request(queue: string, overrides?: Partial<EnqueueRequest>): EnqueueRequest;
  /** Enqueues `request(queue, overrides)`. */
  enqueue(queue: string, overrides?: Partial<EnqueueRequest>): Promise<EnqueueResult>;
  /** Claims from `[queue]`. */
  claim(queue: string, options?: HarnessClaimOptions): Promise<readonly ClaimedJob[]>;
  /** Claims from `[queue]` with limit 1 and asserts exactly one row came back. */
  claimOne(queue: string, options?: Omit<HarnessClaimOptions, 'limit'>): Promise<ClaimedJob>;
  /**
   * Enqueues one row on `queue` and claims it: a row running under a fresh claim, its attempt not
   * started (no attempt counted). (Default queue: `queue`)
   */
  running(queue?: string, options?: Omit<HarnessClaimOptions, 'limit'>): Promise<ClaimedJob>;
  /** {@link DriverHarness.running}, then `driver.start` on the claim (asserted true): one attempt counted. */
  started(queue?: string, options?: Omit<HarnessClaimOptions, 'limit'>): Promise<ClaimedJob>;
  /** `driver.introspect.get(id)`, asserting the row exists. */
  row(id: string): Promise<JobDetail>;
  /**
   * The same conveniences over a second instance of the driver on the same backend (another
   * process's view of it), on the same `queue`, for the `peer` cases: asserted present (the suite
   * runs those cases only with `openPeer`).
   */
  readonly peer: DriverHarness;
  /** The driver's optional members, asserted present: the suite requires every one. */
  readonly introspect: JobIntrospection;
  readonly leases: LeaseStore;
  readonly rateLimits: RateLimitStore;
  readonly schedules: ScheduleStore;
  readonly backfills: BackfillLedger;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function required<T>(value: T | undefined, member: string): T {
  expect(value, `driver.${member} is required by the conformance suite`).toBeDefined();
  return value as T;
}

/**
 * Wraps a subject in the harness a case runs against; `queue` is its `h.queue` (default: a fresh
 * name), `peer` its `h.peer` (a second instance on the same backend, when the case needs one).
 */
export function createDriverHarness(
  subject: JobDriver | ConformanceSubject,
  tickMs: number,
  queue?: string,
  peer?: JobDriver,
): DriverHarness {
  const { driver, clock } = 'driver' in subject ? subject : { driver: subject, clock: undefined };
  const unique = (prefix: string) => `${prefix}-${randomUUID()}`;
  const request = (queue: string, overrides: Partial<EnqueueRequest> = {}): EnqueueRequest => ({
    id: randomUUID(),
    runId: randomUUID(),
    name: 'conformance-job',
    queue,
    payload: { n: 1 },
    tenantId: null,
    idempotencyKey: unique('key'),
    priority: 0,
    maxAttempts: 3,
    ...overrides,
  });
  const claim = (queue: string, options: HarnessClaimOptions = {}) =>
    driver.claim({
      queues: [queue],
      limit: options.limit ?? 10,
      workerId: options.workerId ?? 'conformance-worker',
      visibilityTimeoutMs: options.visibilityTimeoutMs ?? LONG_MS,
    });
  let peerHarness: DriverHarness | undefined;
  const harness: DriverHarness = {
    driver,
    queue: queue ?? unique('q'),
    tickMs,
    async advance(ms) {
      if (clock === undefined) await sleep(ms);
      else await clock.advance(ms);
    },
    unique,
    request,
    enqueue: (queue, overrides) => driver.enqueue(request(queue, overrides)),
    claim,
    async claimOne(queue, options = {}) {
      const claimed = await claim(queue, { ...options, limit: 1 });
      expect(claimed, `one claimable row on ${queue}`).toHaveLength(1);
      return claimed[0]!;
    },
    async running(queue = harness.queue, options = {}) {
      const written = await harness.enqueue(queue);
      const job = await harness.claimOne(queue, options);
      expect(job.id, 'the row just enqueued').toBe(written.id);
      return job;
    },
    async started(queue = harness.queue, options = {}) {
      const job = await harness.running(queue, options);
      const lease = options.visibilityTimeoutMs ?? LONG_MS;
      expect(await driver.start(job.id, job.claim, lease), 'start of a fresh claim').toBe(true);
      return job;
    },
    async row(id) {
      const detail = await harness.introspect.get(id);
      expect(detail, `row ${id}`).not.toBeNull();
      return detail!;
    },
    get peer() {
      expect(peer, 'a peer instance (the peer cases need the openPeer option)').toBeDefined();
      peerHarness ??= createDriverHarness(peer as JobDriver, tickMs, harness.queue);
      return peerHarness;
    },
    get introspect() {
      return required(driver.introspect, 'introspect');
    },
    get leases() {
      return required(driver.leases, 'leases');
    },
    get rateLimits() {
      return required(driver.rateLimits, 'rateLimits');
    },
    get schedules() {
      return required(driver.schedules, 'schedules');
    },
    get backfills() {
      return required(driver.backfills, 'backfills');
    },
  };
  return harness;
}

/** Asserts that `run` rejects (or throws) with the error code `code`; `label` names the call in a failure. */
export async function expectErrorCode(run: () => unknown, code: string, label = 'error code'): Promise<void> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  const actual = caught !== null && typeof caught === 'object' && 'code' in caught ? caught.code : undefined;
  expect(actual, `${label} (thrown: ${String(caught)})`).toBe(code);
}
