import type { EnqueueRequest } from '@x/jobs-core';
import { job, silentLogger } from '@x/jobs-core';
import { memoryJobDriver, virtualClock } from '@x/jobs-driver-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CatchUpPolicy } from './catch-up.js';
import { dispatchTask } from './dispatch-task.js';
import { inProcessState } from './in-process-state.js';
import { createScheduler } from './scheduler.js';
import { task } from './task.js';
import { taskSpec } from './task-spec.js';

// The 2026 switch days: Berlin 03-29 (02:00 CET → 03:00 CEST) and 10-25 (03:00 CEST → 02:00 CET);
// New York 03-08 (02:00 EST → 03:00 EDT) and 11-01 (02:00 EDT → 01:00 EST).

const MINUTE = 60_000;
const digest = job({
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
  describe('Europe/Berlin, spring forward 2026-03-29 (02:00–02:59 does not exist)', () => {
    const span = days('2026-03-27', '2026-03-30');

    it('0 3 * * * fires once a day at 03:00, the switch day included', async () => {
      expect(await fires({ tz: 'Europe/Berlin', cron: '0 3 * * *', stepMs: 15 * MINUTE, ...span })).toEqual([
        '2026-03-28 03:00 GMT+1',
        '2026-03-29 03:00 GMT+2',
        '2026-03-30 03:00 GMT+2',
      ]);
    });

    it('30 2 * * * moves the nonexistent 02:30 to 03:00, the first valid time after the gap, once', async () => {
      expect(await fires({ tz: 'Europe/Berlin', cron: '30 2 * * *', stepMs: 15 * MINUTE, ...span })).toEqual([
        '2026-03-28 02:30 GMT+1',
        '2026-03-29 03:00 GMT+2',
        '2026-03-30 02:30 GMT+2',
      ]);
    });

    it('0 * * * * fires the 23 hours that exist, skipping the missing 02:00', async () => {
      const labels = await fires({
        tz: 'Europe/Berlin',
        cron: '0 * * * *',
        stepMs: 5 * MINUTE,
        ...days('2026-03-28', '2026-03-29'),
      });
      const switchDay = labels.filter((label) => label.startsWith('2026-03-29'));
      expect(switchDay).toHaveLength(23);
      expect(switchDay.slice(1, 4)).toEqual([
        '2026-03-29 01:00 GMT+1',
        '2026-03-29 03:00 GMT+2',
        '2026-03-29 04:00 GMT+2',
      ]);
      expect(new Set(labels).size).toBe(labels.length);
    });
  });

  describe('Europe/Berlin, fall back 2026-10-25 (02:00–02:59 happens twice)', () => {
    const span = days('2026-10-23', '2026-10-26');

    it('0 3 * * * fires once a day at 03:00', async () => {
      expect(await fires({ tz: 'Europe/Berlin', cron: '0 3 * * *', stepMs: 15 * MINUTE, ...span })).toEqual([
        '2026-10-24 03:00 GMT+2',
        '2026-10-25 03:00 GMT+1',
        '2026-10-26 03:00 GMT+1',
      ]);
    });

    it('30 2 * * * fires once on the switch day, at the first 02:30', async () => {
      expect(await fires({ tz: 'Europe/Berlin', cron: '30 2 * * *', stepMs: 15 * MINUTE, ...span })).toEqual([
        '2026-10-24 02:30 GMT+2',
        '2026-10-25 02:30 GMT+2',
        '2026-10-26 02:30 GMT+1',
      ]);
    });

    it('0 * * * * fires every one of the 25 hours once: both 02:00s are distinct instants', async () => {
      const labels = await fires({
        tz: 'Europe/Berlin',
        cron: '0 * * * *',
        stepMs: 5 * MINUTE,
        ...days('2026-10-24', '2026-10-25'),
      });
      const switchDay = labels.filter((label) => label.startsWith('2026-10-25'));
      expect(switchDay).toHaveLength(25);
      expect(switchDay.slice(1, 5)).toEqual([
        '2026-10-25 01:00 GMT+2',
        '2026-10-25 02:00 GMT+2',
        '2026-10-25 02:00 GMT+1',
        '2026-10-25 03:00 GMT+1',
      ]);
      expect(new Set(labels).size).toBe(labels.length);
    });
  });

  describe('America/New_York, spring forward 2026-03-08 (02:00–02:59 does not exist)', () => {
    const span = days('2026-03-06', '2026-03-09');

    it('0 3 * * * fires once a day at 03:00', async () => {
      expect(
        await fires({ tz: 'America/New_York', cron: '0 3 * * *', stepMs: 15 * MINUTE, ...span }),
      ).toEqual(['2026-03-07 03:00 GMT-5', '2026-03-08 03:00 GMT-4', '2026-03-09 03:00 GMT-4']);
    });

    it('30 2 * * * moves the nonexistent 02:30 to 03:00, once', async () => {
      expect(
        await fires({ tz: 'America/New_York', cron: '30 2 * * *', stepMs: 15 * MINUTE, ...span }),
      ).toEqual(['2026-03-07 02:30 GMT-5', '2026-03-08 03:00 GMT-4', '2026-03-09 02:30 GMT-4']);
    });

    it('0 * * * * fires the 23 hours that exist', async () => {
      const labels = await fires({
        tz: 'America/New_York',
        cron: '0 * * * *',
        stepMs: 5 * MINUTE,
        ...days('2026-03-07', '2026-03-09'),
      });
      const switchDay = labels.filter((label) => label.startsWith('2026-03-08'));
      expect(switchDay).toHaveLength(23);
      expect(switchDay).toContain('2026-03-08 01:00 GMT-5');
      expect(switchDay).toContain('2026-03-08 03:00 GMT-4');
      expect(switchDay.some((label) => label.startsWith('2026-03-08 02:'))).toBe(false);
    });
  });

  describe('America/New_York, fall back 2026-11-01 (01:00–01:59 happens twice)', () => {
    const span = days('2026-10-30', '2026-11-02');

    it('0 3 * * * fires once a day at 03:00', async () => {
      expect(
        await fires({ tz: 'America/New_York', cron: '0 3 * * *', stepMs: 15 * MINUTE, ...span }),
      ).toEqual(['2026-10-31 03:00 GMT-4', '2026-11-01 03:00 GMT-5', '2026-11-02 03:00 GMT-5']);
    });

    it('30 2 * * * fires once a day (02:30 is not repeated in New York)', async () => {
      expect(
        await fires({ tz: 'America/New_York', cron: '30 2 * * *', stepMs: 15 * MINUTE, ...span }),
      ).toEqual(['2026-10-31 02:30 GMT-4', '2026-11-01 02:30 GMT-5', '2026-11-02 02:30 GMT-5']);
    });

    it('30 1 * * * fires once on the switch day, at the first 01:30', async () => {
      expect(
        await fires({ tz: 'America/New_York', cron: '30 1 * * *', stepMs: 15 * MINUTE, ...span }),
      ).toEqual(['2026-10-31 01:30 GMT-4', '2026-11-01 01:30 GMT-4', '2026-11-02 01:30 GMT-5']);
    });

    it('0 * * * * fires every one of the 25 hours once', async () => {
      const labels = await fires({
        tz: 'America/New_York',
        cron: '0 * * * *',
        stepMs: 5 * MINUTE,
        ...days('2026-10-31', '2026-11-02'),
      });
      const switchDay = labels.filter((label) => label.startsWith('2026-11-01'));
      expect(switchDay).toHaveLength(25);
      expect(switchDay.filter((label) => label.startsWith('2026-11-01 01:00'))).toEqual([
        '2026-11-01 01:00 GMT-4',
        '2026-11-01 01:00 GMT-5',
      ]);
      expect(new Set(labels).size).toBe(labels.length);
    });
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
