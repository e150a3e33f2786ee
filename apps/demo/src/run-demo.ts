import path from 'node:path';
import {
  createWorker,
  defineJobs,
  isJobsError,
  type JobDetail,
  resetJobDriver,
  setJobDriver,
  setJobsFacade,
} from '@x/jobs-core';
import { type DataDirLock, lockDataDir } from '@x/jobs-driver-pg/pglite';
import { createJobsFacade, createOutboxRelay } from '@x/jobs-outbox';
import { kyselyOutboxStore, migrateOutbox } from '@x/jobs-outbox/kysely';
import { createScheduler } from '@x/jobs-scheduler';
import { openAppDatabase } from './app-database.js';
import { runOrgBackfill } from './backfill-step.js';
import { narratingLogger, replayNarration, type StepCounts } from './event-narration.js';
import { flakyMailer } from './mailer.js';
import { createNarrator, type Narrator } from './narrator.js';
import * as onboardingJobs from './onboarding-jobs.js';
import { onboardOrg, recordFirstLogin } from './onboarding-jobs.js';
import { openQueue } from './open-queue.js';
import * as orgBackfills from './org-backfills.js';
import { orgDirectory } from './org-directory.js';
import { narratingRelayTarget } from './relay-narration.js';
import * as schedules from './schedules.js';
import { signUp } from './signup.js';
import { startDemoTelemetry } from './telemetry.js';
import { watchJob } from './watch-job.js';

/** Where the demo runs and writes. */
export interface DemoOptions {
  /** The embedded database's directory (the app's tables, the outbox, and the queue unless a URL is set). */
  readonly dataDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Aborted by Ctrl-C: the demo drains and stops, to be resumed by the next run. */
  readonly signal: AbortSignal;
}

/**
 * The demo gives up (exit 1) if the onboarding has not finished this long after the worker
 * started (opening the database is not counted: a first run on a busy machine can take a while).
 */
const DEADLINE_MS = 55_000;

/**
 * Runs the onboarding demo and answers its exit code: 0 once the onboarding job is done, 0 too when
 * stopped cleanly by Ctrl-C (a stop asked for is no failure, and pnpm then adds no ELIFECYCLE
 * noise; run it again to resume), 1 when the job died or the deadline passed.
 */
export async function runDemo(options: DemoOptions): Promise<number> {
  const narrator = createNarrator(options.out, options.env);
  const { style } = narrator;
  narrator.plain(style.bold('x-jobs demo: onboarding a new customer'));
  narrator.plain(
    style.dim('Opening the embedded database (the first run creates it: up to ~30 s on a busy machine)…'),
  );
  const lock = await holdDataDir(options.dataDir, narrator);
  if (lock === null) return 1;
  const stopTelemetry = await startDemoTelemetry(options.env);
  const app = await openAppDatabase(options.dataDir);
  // The lock goes last, once PGlite is closed (destroying the Kysely leaves PGlite to its opener).
  const shutdown: (() => Promise<unknown>)[] = [
    () => app.db.destroy(),
    () => app.pglite.close(),
    stopTelemetry,
    () => lock.release(),
  ];
  try {
    await migrateOutbox(app.db);
    const queue = await openQueue(options.env, app);
    shutdown.unshift(() => queue.driver.close());
    const { driver } = queue;
    const where = displayPath(options.dataDir, options.env.INIT_CWD ?? process.cwd());
    narrator.plain(
      style.dim(
        `App tables and outbox in PGlite at ${where}; the queue in ${queue.where}. Ctrl-C any time, then run it again: it resumes.`,
      ),
    );
    narrator.plain('');

    setJobDriver(driver);
    const store = kyselyOutboxStore({ db: app.db });
    setJobsFacade(createJobsFacade({ store, driver }));
    const registry = defineJobs({ jobs: [onboardingJobs, orgBackfills], tasks: [schedules] });

    const jobId = await startOrResume(app.db, driver, narrator);
    const logger = narratingLogger(narrator);
    const observer = replayNarration(narrator);
    const relay = createOutboxRelay({
      store,
      driver: narratingRelayTarget(driver, narrator),
      pollMs: 200,
      logger,
    });
    const worker = createWorker({
      driver,
      registry,
      context: () => ({
        orgs: orgDirectory(app.db),
        mail: flakyMailer(app.db, ['welcome']),
        narrator,
        db: app.db,
      }),
      handleSignals: false,
      logger,
      observer,
      visibilityTimeoutMs: 10_000,
    });
    const scheduler = createScheduler({
      driver,
      tasks: [schedules.usageDigest],
      logger,
      handleSignals: false,
      tickMs: 500,
    });
    relay.start();
    await worker.start();
    await scheduler.start();
    shutdown.unshift(
      () => scheduler.stop(),
      () => relay.stop(),
      () => (options.signal.aborted ? worker.drain() : worker.stop()),
    );

    const settled = await watchJob(driver, jobId, narrator, {
      deadline: Date.now() + DEADLINE_MS,
      stopped: () => options.signal.aborted,
      onParked: (row) => playOwnerLogin(row, narrator),
    });
    if (options.signal.aborted) {
      narrator.say(
        'demo',
        'Ctrl-C: draining. A job in flight goes back to the queue uncounted; every completed step is stored.',
      );
      return 0;
    }
    if (settled === null) {
      narrator.say('demo', style.red(`the onboarding did not finish within ${DEADLINE_MS / 1000}s`));
      return 1;
    }
    await waitForDigest(driver, options.signal);
    if (settled.state === 'done') await runOrgBackfill(driver, narrator, options.signal);
    await summarize(
      narrator,
      driver,
      settled,
      observer.counts,
      queue.where === 'the embedded PGlite' ? where : null,
    );
    return settled.state === 'done' ? 0 : 1;
  } finally {
    for (const step of shutdown) await step().catch(() => undefined);
    setJobsFacade(null);
    resetJobDriver();
    if (options.signal.aborted) {
      narrator.plain(
        `\nStopped. Run ${style.bold('pnpm demo')} again: it resumes from the last completed step.`,
      );
    }
  }
}

/**
 * Takes the data directory's lock before the demo opens PGlite there itself (its tables, the
 * outbox and the queue share one instance): the lock `pgliteJobDriver({ dataDir })` and `x-jobs`
 * take, so neither opens the directory while the demo has it. Null, said, when another process has it.
 */
async function holdDataDir(dataDir: string, narrator: Narrator): Promise<DataDirLock | null> {
  try {
    return await lockDataDir(dataDir);
  } catch (error) {
    if (!isJobsError(error, 'X_PGLITE_LOCKED')) throw error;
    narrator.say(
      'demo',
      narrator.style.red(
        `${error.message} Another demo, or x-jobs dev? Or set X_DEMO_DATA_DIR to another directory.`,
      ),
    );
    return null;
  }
}

/** Resumes an org whose onboarding a previous run left unfinished, or signs up a new one. */
async function startOrResume(
  db: Awaited<ReturnType<typeof openAppDatabase>>['db'],
  driver: import('@x/jobs-core').JobDriver,
  narrator: Narrator,
): Promise<string> {
  const { style } = narrator;
  const orgs = await db.selectFrom('demo_orgs').selectAll().orderBy('created_at').execute();
  const unfinished = orgs.find((org) => org.onboarded_at === null && org.onboarding_job_id !== null);
  if (unfinished?.onboarding_job_id != null) {
    const jobId = unfinished.onboarding_job_id;
    const row = await driver.introspect?.get(jobId);
    const done = (row?.steps ?? []).filter((step) => step.status === 'completed').map((step) => step.name);
    narrator.say(
      'demo',
      `${style.bold('resuming')} ${unfinished.id}: a previous run stopped mid-onboarding. Stored steps: ${
        done.length === 0 ? 'none yet' : done.join(', ')
      }.`,
    );
    narrator.say('demo', 'Those replay from storage; the run continues at the first step not stored.');
    return jobId;
  }
  const orgId = orgs.length === 0 ? 'acme' : `acme-${orgs.length + 1}`;
  const jobId = await signUp(db, narrator, {
    orgId,
    name: 'Acme Inc.',
    ownerEmail: `owner@${orgId}.example`,
    payment: 'accepted',
  });
  await signUp(db, narrator, {
    orgId: 'globex',
    name: 'Globex',
    ownerEmail: 'owner@globex.example',
    payment: 'declined',
  });
  if (jobId === null) throw new Error('the committed sign-up answered no job');
  return jobId;
}

/** How long after the invite the demo's owner "logs in". */
const LOGIN_DELAY = '1500ms';

/**
 * Plays the web app's side once the run waits for the owner's login: the owner clicks the invite
 * link a moment later, recorded by a second job that publishes the event. Enqueued only once the
 * wait has begun, because a wait matches events published from its start on.
 */
async function playOwnerLogin(row: JobDetail, narrator: Narrator): Promise<void> {
  if (row.waitingFor !== 'user.first-login' || row.tenantId === null) return;
  const { ownerEmail } = row.payload as { ownerEmail: string };
  await recordFirstLogin.enqueue({ orgId: row.tenantId, userId: ownerEmail }, { delay: LOGIN_DELAY });
  narrator.say(
    'login',
    `(playing the owner) ${ownerEmail} clicks the invite link in ${LOGIN_DELAY}: recordFirstLogin enqueued`,
  );
}

/** Gives the cron task a few seconds to have fired at least once, so the view shows it. */
async function waitForDigest(driver: import('@x/jobs-core').JobDriver, signal: AbortSignal): Promise<void> {
  const until = Date.now() + 4_000;
  while (Date.now() < until && !signal.aborted) {
    const page = await driver.introspect?.list({ name: 'sendUsageDigest', state: 'done', limit: 1 });
    if ((page?.jobs.length ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `dir` relative to `from` (where the user typed the command: pnpm's INIT_CWD) when inside it, else absolute. */
function displayPath(dir: string, from: string): string {
  const relative = path.relative(from, dir);
  return relative === '' ? '.' : relative.startsWith('..') ? dir : relative;
}

/** The closing table: each step's status, duration, runs and replays, and the rolled-back sign-up. */
async function summarize(
  narrator: Narrator,
  driver: import('@x/jobs-core').JobDriver,
  job: JobDetail,
  counts: ReadonlyMap<string, StepCounts>,
  dataDir: string | null,
): Promise<void> {
  const { style } = narrator;
  const rolledBack = await driver.introspect?.list({ name: onboardOrg.name, tenantId: 'globex', limit: 10 });
  narrator.plain('');
  narrator.plain(
    `${style.bold(`${job.name} ${job.state}`)} for ${job.tenantId} after ${job.attempts} attempt(s); globex has ${
      rolledBack?.jobs.length ?? 0
    } onboarding jobs (its transaction rolled back).`,
  );
  narrator.plain(
    style.dim(`  ${'step'.padEnd(16)}${'status'.padEnd(11)}${'took'.padEnd(9)}${'ran'.padEnd(5)}replayed`),
  );
  for (const step of job.steps) {
    const took = step.completedAt === null ? '—' : `${step.completedAt - step.startedAt}ms`;
    const { ran, replayed } = counts.get(`${job.name}/${step.name}`) ?? { ran: 0, replayed: 0 };
    narrator.plain(
      `  ${step.name.padEnd(16)}${step.status.padEnd(11)}${took.padEnd(9)}${`${ran}×`.padEnd(5)}${replayed}×`,
    );
  }
  narrator.plain('');
  narrator.plain(
    style.dim(
      'ran: how often the step’s code ran in this process; replayed: how often its stored result was read back instead.',
    ),
  );
  narrator.plain(
    style.dim(
      `Inspect the run: pnpm x-jobs show ${job.id}${dataDir === null ? '' : ` --data-dir ${dataDir}`}`,
    ),
  );
}
