import { job, silentLogger } from '@x/jobs-core';
import type { EnqueueRequest } from '@x/jobs-core/driver';
import { memoryJobDriver, virtualClock } from '@x/jobs-driver-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CatchUpPolicy } from '../src/catch-up.js';
import { dispatchTask } from '../src/dispatch-task.js';
import { inProcessState } from '../src/in-process-state.js';
import { createScheduler } from '../src/scheduler.js';
import { task } from '../src/task.js';
import { taskSpec } from '../src/task-spec.js';

// The 2026 switch days: Berlin 03-29 (02:00 CET → 03:00 CEST) and 10-25 (03:00 CEST → 02:00 CET);
// New York 03-08 (02:00 EST → 03:00 EDT) and 11-01 (02:00 EDT → 01:00 EST).

const MINUTE = 60_000;
const digest = job({
  name: 'scheduler-test.digest',
  input: z.object({}),
  idempotencyKey: () => 'digest',
  tenant: 'none',
  run: async () => undefined,
});

interface Simulation {
  readonly tz: string;
  readonly cron: string;
  readonly from: string;
  readonly to: string;
  readonly stepMs: number;
  readonly catchUp?: CatchUpPolicy;
}

/** Each fired occurrence (read off its occurrence-scoped key) as a local label with its UTC offset. */
function localLabels(tz: string, keys: readonly string[]): string[] {
  const local = new Intl.DateTimeFormat('sv-SE', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'shortOffset',
  });
  return keys.map((key) => local.format(new Date(key.split('@')[2]!)).replace('\u2212', '-'));
}

const taskOf = (options: Simulation) =>
  task({
    cron: options.cron,
    tz: options.tz,
    catchUp: options.catchUp ?? 'skip',
    enqueue: () => [[digest, {}]],
  });

/** Drives dispatch rounds from `from` to `to` every `stepMs` and answers every fired occurrence, as local labels. */
async function fires(options: Simulation): Promise<string[]> {
  const handle = taskOf(options);
  const sent: EnqueueRequest[] = [];
  const context = {
    state: inProcessState({ unsafe: true }),
    logger: silentLogger,
    send: async (requests: readonly EnqueueRequest[]) => {
      sent.push(...requests);
      return requests.map((r) => ({ id: r.id, runId: r.runId, deduped: false }));
    },
  };
  const start = Date.parse(options.from);
  for (let now = start; now <= Date.parse(options.to); now += options.stepMs) {
    await dispatchTask(context, handle.name, taskSpec(handle), now);
  }
  return localLabels(
    options.tz,
    sent.map((request) => request.idempotencyKey),
  );
}

/** The same, through a whole scheduler on the memory driver (its watermark store, its next-due cache). */
async function firesThroughScheduler(options: Simulation): Promise<string[]> {
  const handle = taskOf(options);
  const clock = virtualClock(Date.parse(options.from));
  const driver = memoryJobDriver({ clock });
  const scheduler = createScheduler({ driver, tasks: [handle], logger: silentLogger, handleSignals: false });
  for (let now = clock.now(); now <= Date.parse(options.to); now = clock.advance(options.stepMs)) {
    await scheduler.tick();
  }
  await scheduler.stop();
  const { jobs } = await driver.introspect!.list({ name: digest.name, limit: 1000 });
  return localLabels(options.tz, jobs.map((row) => row.idempotencyKey).sort());
}

/** From noon UTC of `first` (the first round only sets the watermark) to the end of `last`. */
const days = (first: string, last: string) => ({ from: `${first}T12:00:00Z`, to: `${last}T23:59:00Z` });

describe('DST switch days: each wall-clock occurrence fires once, never twice', () => {
  // [zone, pattern, what the switch does to it, rounds from … to, every fire (local, with offset)]
  it.each([
    [
      'Europe/Berlin',
      '0 3 * * *',
      'spring forward: 03:00 exists',
      days('2026-03-27', '2026-03-30'),
      ['2026-03-28 03:00 GMT+1', '2026-03-29 03:00 GMT+2', '2026-03-30 03:00 GMT+2'],
    ],
    [
      'Europe/Berlin',
      '30 2 * * *',
      'spring forward: 02:30 does not exist, moved to 03:00 (first valid time), once',
      days('2026-03-27', '2026-03-30'),
      ['2026-03-28 02:30 GMT+1', '2026-03-29 03:00 GMT+2', '2026-03-30 02:30 GMT+2'],
    ],
    [
      'Europe/Berlin',
      '0 3 * * *',
      'fall back: 03:00 happens once',
      days('2026-10-23', '2026-10-26'),
      ['2026-10-24 03:00 GMT+2', '2026-10-25 03:00 GMT+1', '2026-10-26 03:00 GMT+1'],
    ],
    [
      'Europe/Berlin',
      '30 2 * * *',
      'fall back: 02:30 happens twice, fires at the first',
      days('2026-10-23', '2026-10-26'),
      ['2026-10-24 02:30 GMT+2', '2026-10-25 02:30 GMT+2', '2026-10-26 02:30 GMT+1'],
    ],
    [
      'America/New_York',
      '0 3 * * *',
      'spring forward: 03:00 exists',
      days('2026-03-06', '2026-03-09'),
      ['2026-03-07 03:00 GMT-5', '2026-03-08 03:00 GMT-4', '2026-03-09 03:00 GMT-4'],
    ],
    [
      'America/New_York',
      '30 2 * * *',
      'spring forward: 02:30 does not exist, moved to 03:00, once',
      days('2026-03-06', '2026-03-09'),
      ['2026-03-07 02:30 GMT-5', '2026-03-08 03:00 GMT-4', '2026-03-09 02:30 GMT-4'],
    ],
    [
      'America/New_York',
      '0 3 * * *',
      'fall back: 03:00 happens once',
      days('2026-10-30', '2026-11-02'),
      ['2026-10-31 03:00 GMT-4', '2026-11-01 03:00 GMT-5', '2026-11-02 03:00 GMT-5'],
    ],
    [
      'America/New_York',
      '30 2 * * *',
      'fall back: 02:30 is not repeated here',
      days('2026-10-30', '2026-11-02'),
      ['2026-10-31 02:30 GMT-4', '2026-11-01 02:30 GMT-5', '2026-11-02 02:30 GMT-5'],
    ],
    [
      'America/New_York',
      '30 1 * * *',
      'fall back: 01:30 happens twice, fires at the first',
      days('2026-10-30', '2026-11-02'),
      ['2026-10-31 01:30 GMT-4', '2026-11-01 01:30 GMT-4', '2026-11-02 01:30 GMT-5'],
    ],
  ])('%s %s, %s', async (tz, cron, _what, span, expected) => {
    expect(await fires({ tz, cron, stepMs: 15 * MINUTE, ...span })).toEqual(expected);
  });

  // [zone, what the switch does, rounds from … to, the switch day, its fires, its fires up to 04:00]
  it.each([
    [
      'Europe/Berlin',
      'spring forward: 02:00 is skipped',
      days('2026-03-28', '2026-03-29'),
      '2026-03-29',
      23,
      ['00:00 GMT+1', '01:00 GMT+1', '03:00 GMT+2', '04:00 GMT+2'],
    ],
    [
      'Europe/Berlin',
      'fall back: both 02:00s fire, each once',
      days('2026-10-24', '2026-10-25'),
      '2026-10-25',
      25,
      ['00:00 GMT+2', '01:00 GMT+2', '02:00 GMT+2', '02:00 GMT+1', '03:00 GMT+1', '04:00 GMT+1'],
    ],
    [
      'America/New_York',
      'spring forward: 02:00 is skipped',
      days('2026-03-07', '2026-03-09'),
      '2026-03-08',
      23,
      ['00:00 GMT-5', '01:00 GMT-5', '03:00 GMT-4', '04:00 GMT-4'],
    ],
    [
      'America/New_York',
      'fall back: both 01:00s fire, each once',
      days('2026-10-31', '2026-11-02'),
      '2026-11-01',
      25,
      ['00:00 GMT-4', '01:00 GMT-4', '01:00 GMT-5', '02:00 GMT-5', '03:00 GMT-5', '04:00 GMT-5'],
    ],
  ] as const)('%s 0 * * * *, %s', async (tz, _what, span, day, count, early) => {
    const labels = await fires({ tz, cron: '0 * * * *', stepMs: 5 * MINUTE, ...span });
    expect(new Set(labels).size).toBe(labels.length);
    const switchDay = labels.filter((label) => label.startsWith(day)).map((label) => label.slice(11));
    expect(switchDay).toHaveLength(count);
    expect(switchDay.filter((label) => label < '04:01')).toEqual(early);
  });

  describe('through a whole scheduler', () => {
    it.each([
      ['Europe/Berlin', '30 2 * * *', days('2026-03-28', '2026-03-29')],
      ['Europe/Berlin', '0 * * * *', days('2026-10-24', '2026-10-25')],
      ['America/New_York', '30 1 * * *', days('2026-10-31', '2026-11-02')],
      ['America/New_York', '0 * * * *', days('2026-03-07', '2026-03-08')],
    ])('%s %s fires what the dispatch rounds fire', async (tz, cron, span) => {
      const simulation = { tz, cron, stepMs: 5 * MINUTE, ...span };
      const reference = await fires(simulation);
      expect(reference.length).toBeGreaterThan(0);
      expect(await firesThroughScheduler(simulation)).toEqual(reference);
    });
  });

  describe('the tick rhythm does not change what fires', () => {
    it.each([
      ['Europe/Berlin', '30 2 * * *', days('2026-10-24', '2026-10-25')],
      ['Europe/Berlin', '0 * * * *', days('2026-10-24', '2026-10-25')],
      ['America/New_York', '30 2 * * *', days('2026-03-07', '2026-03-08')],
      ['America/New_York', '0 * * * *', days('2026-10-31', '2026-11-01')],
    ])(
      '%s %s: rounds every 7 or 53 minutes fire what rounds every 5 minutes fire',
      async (tz, cron, span) => {
        const reference = await fires({ tz, cron, stepMs: 5 * MINUTE, catchUp: 'run-all', ...span });
        expect(reference.length).toBeGreaterThan(0);
        expect(await fires({ tz, cron, stepMs: 7 * MINUTE, catchUp: 'run-all', ...span })).toEqual(reference);
        expect(await fires({ tz, cron, stepMs: 53 * MINUTE, catchUp: 'run-all', ...span })).toEqual(
          reference,
        );
      },
    );
  });
});
