import type { JobDriver, JobRecord } from '@x/jobs-core';
import { defineJobs, job, recordingLogger, resetRegistry, silentLogger } from '@x/jobs-core';
import type { ScheduleStore } from '@x/jobs-core/driver';
import { memoryJobDriver, type VirtualClock, virtualClock } from '@x/jobs-driver-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CatchUpPolicy } from '../src/catch-up.js';
import { inProcessLeader } from '../src/in-process-leader.js';
import { inProcessState } from '../src/in-process-state.js';
import { SCHEDULER_LEADER_KEY } from '../src/lease-leader.js';
import { pauseTask, resumeTask } from '../src/pause-task.js';
import { createScheduler, type Scheduler, type SchedulerOptions } from '../src/scheduler.js';
import { task } from '../src/task.js';

const report = job({
  name: 'scheduler-test-report',
  input: z.object({ kind: z.string() }),
  idempotencyKey: ({ kind }) => `report:${kind}`,
  tenant: 'none',
  run: async () => undefined,
});

const START = Date.parse('2026-06-01T00:00:30Z');
const HOUR = 3_600_000;

/** Wraps a schedule store so a test can count `get` calls (one per task looked at). */
function countingReads(store: ScheduleStore): { store: ScheduleStore; reads: () => number } {
  let reads = 0;
  return {
    store: {
      ...store,
      get: (name) => {
        reads += 1;
        return store.get(name);
      },
    },
    reads: () => reads,
  };
}

const started: Scheduler[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((scheduler) => scheduler.stop()));
  resetRegistry();
});

function setup(catchUp: CatchUpPolicy = 'skip', maxCatchUp = 10) {
  const clock = virtualClock(START);
  const driver = memoryJobDriver({ clock });
  const hourly = task({
    cron: '0 * * * *',
    tz: 'UTC',
    catchUp,
    maxCatchUp,
    enqueue: () => [[report, { kind: 'hourly' }]],
  });
  const scheduler = (extra: Partial<SchedulerOptions> = {}) =>
    createScheduler({ driver, tasks: [hourly], logger: silentLogger, handleSignals: false, ...extra });
  return { clock, driver, hourly, scheduler };
}

async function rows(driver: JobDriver): Promise<readonly JobRecord[]> {
  return (await driver.introspect!.list({ name: report.name, limit: 1000 })).jobs;
}

describe('createScheduler', () => {
  it('does not fire the past on its first round: it sets the watermark to now', async () => {
    const { driver, hourly, scheduler } = setup();
    const round = await scheduler().tick();
    expect(round).toEqual({
      at: START,
      leader: true,
      tasks: [{ task: hourly.name, outcome: 'initialized', watermark: START }],
    });
    expect(await rows(driver)).toHaveLength(0);
    expect((await driver.schedules!.get(hourly.name))?.watermark).toBe(START);
  });

  it('fires each occurrence once, under an occurrence-scoped key, on the driver', async () => {
    const { clock, driver, hourly, scheduler } = setup();
    const s = scheduler();
    await s.tick();
    clock.advance('1h');
    const round = await s.tick();
    expect(round.tasks).toEqual([
      expect.objectContaining({
        outcome: 'fired',
        occurrences: [Date.parse('2026-06-01T01:00:00Z')],
        enqueued: 1,
      }),
    ]);
    await s.tick();
    clock.advance('1m');
    await s.tick();
    const written = await rows(driver);
    expect(written.map((row) => row.idempotencyKey)).toEqual([
      `report:hourly@${hourly.name}@2026-06-01T01:00:00.000Z`,
    ]);
    expect(written[0]?.payload).toEqual({ kind: 'hourly' });
  });

  describe('catch-up after 5 hours down', () => {
    it.each([
      ['skip', ['2026-06-01T05:00:00.000Z']],
      ['run-once', ['2026-06-01T01:00:00.000Z']],
      ['run-all', ['01', '02', '03', '04', '05'].map((h) => `2026-06-01T${h}:00:00.000Z`)],
    ] as const)('%s fires %j, then waits for the next real occurrence', async (catchUp, expected) => {
      const { clock, driver, scheduler } = setup(catchUp);
      const first = scheduler();
      await first.tick();
      await first.stop();
      clock.advance(5 * HOUR + 10 * 60_000);
      const second = scheduler();
      await second.tick();
      await second.tick();
      clock.advance('30m');
      await second.tick();
      const keys = (await rows(driver)).map((row) => row.idempotencyKey.split('@')[2]).sort();
      expect(keys).toEqual([...expected]);
      clock.advance('20m');
      expect((await second.tick()).tasks[0]).toMatchObject({
        outcome: 'fired',
        occurrences: [Date.parse('2026-06-01T06:00:00Z')],
      });
    });

    it('maxCatchUp bounds the walk: skip after 30 hours down fires the 3rd missed hour and drops the rest', async () => {
      const { clock, driver, scheduler } = setup('skip', 3);
      const s = scheduler();
      await s.tick();
      clock.advance(30 * HOUR);
      const round = await s.tick();
      expect(round.tasks[0]).toMatchObject({
        outcome: 'fired',
        due: 3,
        capped: true,
        watermark: clock.now(),
      });
      expect((await rows(driver)).map((row) => row.idempotencyKey.split('@')[2])).toEqual([
        '2026-06-01T03:00:00.000Z',
      ]);
    });
  });

  it('a paused task is not dispatched; on resume its catch-up policy decides what it missed', async () => {
    const { clock, driver, hourly, scheduler } = setup('run-once');
    const s = scheduler();
    await s.tick();
    await pauseTask(driver, hourly);
    clock.advance('3h');
    expect((await s.tick()).tasks[0]).toEqual({ task: hourly.name, outcome: 'paused' });
    expect(await rows(driver)).toHaveLength(0);
    await resumeTask(driver, hourly.name);
    await s.tick();
    expect((await rows(driver)).map((row) => row.idempotencyKey.split('@')[2])).toEqual([
      '2026-06-01T01:00:00.000Z',
    ]);
  });

  it('pauseTask on a driver without schedules is X_SCHEDULER_UNSAFE', async () => {
    const { schedules: _none, ...driver } = memoryJobDriver();
    await expect(pauseTask(driver, 'x')).rejects.toMatchObject({ code: 'X_SCHEDULER_UNSAFE' });
  });

  describe('a driver without leases or schedules', () => {
    it.each(['leases', 'schedules'] as const)(
      'without %s: start() and tick() refuse with X_SCHEDULER_UNSAFE',
      async (member) => {
        const { [member]: _none, ...driver } = memoryJobDriver();
        const s = createScheduler({ driver, tasks: [], logger: silentLogger, handleSignals: false });
        await expect(s.start()).rejects.toMatchObject({
          code: 'X_SCHEDULER_UNSAFE',
          meta: { missing: [member] },
        });
        await expect(s.tick()).rejects.toMatchObject({ code: 'X_SCHEDULER_UNSAFE' });
        expect(s.running).toBe(false);
      },
    );

    it('runs with an explicit in-process leader and state, and says so in the log', async () => {
      const { leases: _l, schedules: _s, ...driver } = memoryJobDriver();
      const logger = recordingLogger();
      const s = createScheduler({
        driver,
        tasks: [],
        leader: inProcessLeader({ unsafe: true }),
        state: inProcessState({ unsafe: true }),
        logger,
        handleSignals: false,
      });
      started.push(s);
      await s.start();
      expect(s.running).toBe(true);
      expect(logger.events.map((e) => e.event)).toContain('scheduler.unsafe');
    });

    it('the in-process factories demand unsafe: true', () => {
      expect(() => inProcessLeader({} as never)).toThrow(
        expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
      );
      expect(() => inProcessState({} as never)).toThrow(
        expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
      );
    });
  });

  describe('leadership', () => {
    it('only the lease holder dispatches; a demoted node stops, and the other takes over', async () => {
      const { clock, driver, scheduler } = setup();
      const logger = recordingLogger();
      const a = scheduler({ logger });
      const b = scheduler();
      expect((await a.tick()).leader).toBe(true);
      expect((await b.tick()).leader).toBe(false);
      // a stops renewing: its lease lapses after the default 30 s TTL and b takes it.
      clock.advance('31s');
      expect((await b.tick()).leader).toBe(true);
      expect((await a.tick()).leader).toBe(false);
      expect(logger.events.map((e) => e.event)).toEqual(
        expect.arrayContaining(['scheduler.leader.acquired', 'scheduler.leader.lost']),
      );
      clock.advance('1h');
      expect((await b.tick()).tasks[0]).toMatchObject({ outcome: 'fired' });
      expect(await a.tick()).toMatchObject({ leader: false, tasks: [] });
      expect(await rows(driver)).toHaveLength(1);
    });

    it('stop() releases the lease so another node leads at once', async () => {
      const { driver, scheduler } = setup();
      const a = scheduler();
      const b = scheduler();
      await a.tick();
      expect(await driver.leases!.holders(SCHEDULER_LEADER_KEY)).toHaveLength(1);
      await a.stop();
      expect(await driver.leases!.holders(SCHEDULER_LEADER_KEY)).toHaveLength(0);
      expect((await b.tick()).leader).toBe(true);
      expect((await a.tick()).leader).toBe(false);
    });
  });

  it('two schedulers with no election still fire each occurrence once: the watermark CAS decides', async () => {
    const { clock, driver, scheduler } = setup('run-all');
    const a = scheduler({ leader: inProcessLeader({ unsafe: true }) });
    const b = scheduler({ leader: inProcessLeader({ unsafe: true }) });
    await Promise.all([a.tick(), b.tick()]);
    for (let hour = 0; hour < 12; hour += 1) {
      clock.advance('1h');
      const rounds = await Promise.all([a.tick(), b.tick()]);
      const outcomes = rounds.map((round) => round.tasks[0]?.outcome).sort();
      expect(outcomes).toEqual(['fired', 'lost-race']);
    }
    const keys = (await rows(driver)).map((row) => row.idempotencyKey);
    expect(keys).toHaveLength(12);
    expect(new Set(keys).size).toBe(12);
  });

  it('an enqueue that fails puts the watermark back, and the next round fires that occurrence', async () => {
    const { clock, driver, hourly } = setup();
    let failNext = false;
    const flaky: JobDriver = {
      ...driver,
      enqueueMany: async (requests) => {
        if (failNext) {
          failNext = false;
          throw Object.assign(new Error('down'), { code: 'X_DRIVER_UNAVAILABLE' });
        }
        return driver.enqueueMany(requests);
      },
    };
    const s = createScheduler({ driver: flaky, tasks: [hourly], logger: silentLogger, handleSignals: false });
    await s.tick();
    clock.advance('1h');
    failNext = true;
    expect((await s.tick()).tasks[0]).toEqual({
      task: hourly.name,
      outcome: 'failed',
      stage: 'enqueue',
      code: 'X_DRIVER_UNAVAILABLE',
      reverted: true,
    });
    expect((await driver.schedules!.get(hourly.name))?.watermark).toBe(START);
    expect((await s.tick()).tasks[0]).toMatchObject({
      outcome: 'fired',
      occurrences: [Date.parse('2026-06-01T01:00:00Z')],
    });
    expect(await rows(driver)).toHaveLength(1);
  });

  it('entries that fail to build (a bad input) leave the watermark alone and are retried at most once a minute', async () => {
    const clock = virtualClock(START);
    const driver = memoryJobDriver({ clock });
    let input: unknown = { kind: 7 };
    const broken = task({
      cron: '0 * * * *',
      tz: 'UTC',
      enqueue: () => [[report, input as { kind: string }]],
    });
    const logger = recordingLogger();
    const s = createScheduler({ driver, tasks: [broken], logger, handleSignals: false });
    await s.tick();
    clock.advance('1h');
    expect((await s.tick()).tasks[0]).toMatchObject({
      outcome: 'failed',
      stage: 'entries',
      code: 'X_JOB_INPUT_INVALID',
    });
    expect((await s.tick()).tasks[0]).toMatchObject({ outcome: 'idle' });
    expect(logger.events.filter((e) => e.event === 'scheduler.task.entries_failed')).toHaveLength(1);
    expect((await driver.schedules!.get(broken.name))?.watermark).toBe(START);
    input = { kind: 'fixed' };
    clock.advance('1m');
    expect((await s.tick()).tasks[0]).toMatchObject({
      outcome: 'fired',
      occurrences: [Date.parse('2026-06-01T01:00:00Z')],
    });
  });

  it('defaults to the tasks registered with defineJobs', async () => {
    const clock = virtualClock(START);
    const driver = memoryJobDriver({ clock });
    const registeredHourly = task({
      cron: '0 * * * *',
      tz: 'UTC',
      enqueue: () => [[report, { kind: 'registered' }]],
    });
    defineJobs({ tasks: [{ registeredHourly }] });
    const s = createScheduler({ driver, logger: silentLogger, handleSignals: false });
    await s.tick();
    clock.advance('1h');
    expect((await s.tick()).tasks).toEqual([
      expect.objectContaining({ task: 'registeredHourly', outcome: 'fired' }),
    ]);
  });

  it('skips reading a task until its next occurrence is due', async () => {
    const { clock, driver, hourly } = setup();
    const counting = countingReads(driver.schedules!);
    const s = createScheduler({
      driver,
      tasks: [hourly],
      state: counting.store,
      logger: silentLogger,
      handleSignals: false,
    });
    await s.tick();
    for (let i = 0; i < 10; i += 1) {
      clock.advance('1m');
      expect((await s.tick()).tasks[0]).toEqual({
        task: hourly.name,
        outcome: 'idle',
        nextAt: Date.parse('2026-06-01T01:00:00Z'),
      });
    }
    expect(counting.reads()).toBe(1);
  });

  it('refuses invalid options', () => {
    const driver = memoryJobDriver();
    const options = { driver, logger: silentLogger, handleSignals: false };
    expect(() => createScheduler({ ...options, tickMs: 0 })).toThrow(
      expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
    );
    expect(() => createScheduler({ ...options, tasks: [{ name: 'x' } as never] })).toThrow(
      expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
    );
    expect(() => createScheduler({ ...options, driver: undefined as never })).toThrow(
      expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
    );
  });

  it('refuses two tasks with one name: they would share a watermark', async () => {
    const { driver, hourly } = setup();
    const s = createScheduler({
      driver,
      tasks: [hourly, hourly],
      logger: silentLogger,
      handleSignals: false,
    });
    await expect(s.start()).rejects.toMatchObject({ code: 'X_SCHEDULER_OPTIONS_INVALID' });
  });
});

describe('running and stopping', () => {
  function slowDriver(clock: VirtualClock) {
    const driver = memoryJobDriver({ clock });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const slow: JobDriver = {
      ...driver,
      enqueueMany: async (requests) => {
        entered();
        await gate;
        return driver.enqueueMany(requests);
      },
    };
    return { driver, slow, release, inside };
  }

  it('start() runs rounds every tickMs; stop() finishes the round in flight, then releases the lease', async () => {
    const clock = virtualClock(START);
    const { driver, slow, release, inside } = slowDriver(clock);
    const hourly = task({ cron: '0 * * * *', tz: 'UTC', enqueue: () => [[report, { kind: 'slow' }]] });
    await driver.schedules!.advance(hourly.name, null, START - HOUR);
    const s = createScheduler({
      driver: slow,
      tasks: [hourly],
      tickMs: 5,
      logger: silentLogger,
      handleSignals: false,
    });
    await s.start();
    await inside;
    let stopped = false;
    const stopping = s.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    expect(await driver.leases!.holders(SCHEDULER_LEADER_KEY)).toHaveLength(1);
    release();
    await stopping;
    expect(s.running).toBe(false);
    expect(await rows(driver)).toHaveLength(1);
    expect(await driver.leases!.holders(SCHEDULER_LEADER_KEY)).toHaveLength(0);
    expect((await s.tick()).leader).toBe(false);
    await expect(s.start()).rejects.toMatchObject({ code: 'X_SCHEDULER_OPTIONS_INVALID' });
  });

  it('keeps ticking on a timer while running', async () => {
    const { driver, hourly } = setup();
    const counting = countingReads(driver.schedules!);
    const paused = task({ cron: '0 * * * *', tz: 'UTC', enqueue: () => [[report, { kind: 'p' }]] });
    await driver.schedules!.setPaused(paused.name, true);
    const s = createScheduler({
      driver,
      tasks: [hourly, paused],
      state: counting.store,
      tickMs: 2,
      logger: silentLogger,
      handleSignals: false,
    });
    started.push(s);
    await s.start();
    await expect.poll(() => counting.reads(), { timeout: 2_000 }).toBeGreaterThan(5);
  });

  it('SIGTERM stops it: the round finishes, the lease is released, the listeners are removed', async () => {
    const { driver, scheduler } = setup();
    const s = scheduler({ handleSignals: true, tickMs: 1_000 });
    const before = process.listenerCount('SIGTERM');
    await s.start();
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    await expect.poll(() => driver.leases!.holders(SCHEDULER_LEADER_KEY).then((h) => h.length)).toBe(1);
    process.emit('SIGTERM', 'SIGTERM');
    await expect.poll(() => s.running).toBe(false);
    await expect.poll(() => driver.leases!.holders(SCHEDULER_LEADER_KEY).then((h) => h.length)).toBe(0);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
