import { createWorker, type JobDriver, setJobDriver, type Worker } from '@x/jobs-core';
import { runBootHook } from '../app-module/boot-hook.js';
import { loadAppModule } from '../app-module/load-app-module.js';
import type { Backend } from '../backend/backend.js';
import { type BackendChoice, chooseBackend, describeBackend } from '../backend/backend-choice.js';
import { importOptional } from '../backend/import-optional.js';
import { openBackend } from '../backend/open-backend.js';
import type { CommandContext } from '../command-context.js';
import { Printer } from '../output/printer.js';
import { startTelemetry } from '../telemetry/start-telemetry.js';
import { serveHealth } from './health-server.js';
import { LiveLog } from './live-log.js';
import type { RuntimeFlags } from './runtime-flags.js';
import { runtimeLogger } from './runtime-logger.js';
import { stepObserver } from './step-observer.js';
import { workerStatus } from './worker-status.js';

/** Which parts a long-running command starts in this process. */
export interface RuntimePlan {
  /** A human name for the banner: `worker`, `scheduler`, `dev`. */
  readonly name: string;
  readonly worker: boolean;
  readonly scheduler: boolean;
  /** Drain the outbox the module's `boot` answers, when it answers one. */
  readonly relay: boolean;
  /** Apply pending migrations first (PGlite dev loop). */
  readonly migrate: boolean;
  /** Print a line per step executed or replayed (the dev loop's live view). */
  readonly traceSteps: boolean;
  /** Overrides the backend flags (dev defaults to PGlite whatever the environment says). */
  readonly choose?: (flags: RuntimeFlags, cwd: string) => BackendChoice;
}

interface Stoppable {
  readonly label: string;
  stop(): Promise<void>;
}

/**
 * Runs a worker, a scheduler, an outbox relay or all three against one backend until SIGTERM /
 * SIGINT (or, with `--once`, until no job is due): starts telemetry, loads the module, opens the
 * backend, installs it as the ambient driver, runs the module's `boot`, starts the parts, and on the
 * first signal stops them in order (scheduler round, relay pass, worker drain: interrupted jobs go
 * back uncounted), then closes the backend. A second signal exits at once.
 */
export async function runRuntime(
  context: CommandContext,
  flags: RuntimeFlags,
  plan: RuntimePlan,
): Promise<void> {
  const { io } = context;
  const printer = new Printer(io, { json: flags.json === true });
  const live = new LiveLog(io.stdout);
  const logger = runtimeLogger(printer, live);
  const p = printer.palette;
  const telemetry = await startTelemetry({
    exporter: flags.otel ?? 'none',
    serviceName: `x-jobs ${plan.name}`,
  });
  const stack: Stoppable[] = [{ label: 'telemetry', stop: () => telemetry.shutdown() }];
  const unwind = async (): Promise<void> => {
    for (const part of stack.splice(0).reverse()) {
      await part.stop().catch((error: unknown) =>
        logger.log('error', 'x-jobs.stop.failed', {
          part: part.label,
          message: error instanceof Error ? error.message : String(error),
        }),
      );
    }
  };
  let stopRequested: (signal: string) => void = () => undefined;
  const stopSignal = new Promise<string>((resolve) => {
    stopRequested = resolve;
  });
  let signals = 0;
  const unsubscribe = io.onStopSignal((signal) => {
    signals += 1;
    if (signals === 1) {
      logger.log('info', 'x-jobs.stopping', { signal });
      stopRequested(signal);
    } else {
      live.clear();
      printer.note(p.red('Second signal: exiting without waiting for the drain.'));
      process.exit(130);
    }
  });
  try {
    const app = await loadAppModule(flags.module ?? '', io.cwd);
    const choice = (plan.choose ?? chooseBackend)(flags, io.cwd);
    const backend: Backend = await openBackend(choice);
    stack.push({ label: 'backend', stop: () => backend.close() });
    if (plan.migrate && backend.migrate !== undefined) await backend.migrate();
    const { driver } = backend;
    setJobDriver(driver);
    const booted = await runBootHook(app.namespace, { driver, backend: choice.kind });
    if (booted.close !== undefined) stack.push({ label: 'boot', stop: booted.close });
    logger.log('info', 'x-jobs.started', {
      command: plan.name,
      backend: describeBackend(choice, io.cwd),
      module: app.file,
      jobs: app.registry.jobs().map((handle) => handle.name),
      tasks: app.registry.tasks().map((handle) => handle.name),
    });

    let worker: Worker | undefined;
    if (plan.worker) {
      worker = createWorker({
        driver,
        context: booted.context ?? (() => ({})),
        registry: app.registry,
        ...(flags.queues === undefined ? {} : { queues: flags.queues }),
        ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
        handleSignals: false,
        logger,
        ...(plan.traceSteps ? { observer: stepObserver(live, printer) } : {}),
      });
      const running = worker;
      if (flags.once === true) {
        const ran = await running.runDue();
        logger.log('info', 'x-jobs.once.done', { ran, counts: running.stats().counts });
        return;
      }
      await running.start();
      stack.push({ label: 'worker', stop: () => running.drain() });
      if (flags.healthPort !== undefined) {
        stack.push({ label: 'health', stop: await serveHealth(running, flags.healthPort) });
        logger.log('info', 'x-jobs.health.listening', { port: flags.healthPort });
      }
    }
    if (plan.relay && booted.outbox !== undefined) {
      const outbox = await importOptional(() => import('@x/jobs-outbox'), {
        code: 'X_CLI_PACKAGE_MISSING',
        packages: ['@x/jobs-outbox'],
        purpose: `x-jobs ${plan.name} with an outbox`,
      });
      const relay = outbox.createOutboxRelay({ store: booted.outbox, driver, logger });
      relay.start();
      stack.push({ label: 'relay', stop: () => relay.stop() });
    }
    if (plan.scheduler) await startScheduler(driver, app.registry.tasks().length, logger, stack, printer);

    const ticker = setInterval(() => {
      if (worker !== undefined) live.status(workerStatus(worker.stats(), p));
    }, 250);
    stack.push({
      label: 'status',
      stop: async () => {
        clearInterval(ticker);
        live.clear();
      },
    });
    await stopSignal;
  } finally {
    // Unwind while still subscribed: a second signal during the drain must reach the listener
    // above (exit 130), not Node's default handler (death by SIGTERM).
    try {
      await unwind();
    } finally {
      unsubscribe();
    }
  }
}

async function startScheduler(
  driver: JobDriver,
  taskCount: number,
  logger: ReturnType<typeof runtimeLogger>,
  stack: Stoppable[],
  printer: Printer,
): Promise<void> {
  if (taskCount === 0) {
    printer.note(printer.palette.dim('No tasks registered: the scheduler has nothing to dispatch.'));
    return;
  }
  const { createScheduler } = await importOptional(() => import('@x/jobs-scheduler'), {
    code: 'X_CLI_PACKAGE_MISSING',
    packages: ['@x/jobs-scheduler'],
    purpose: 'x-jobs scheduler',
  });
  const scheduler = createScheduler({ driver, logger, handleSignals: false });
  await scheduler.start();
  stack.push({ label: 'scheduler', stop: () => scheduler.stop() });
}
