import { createWorker, type JobDriver, job, silentLogger } from '@x/jobs-core';
import { expect } from 'vitest';
import { enqueueAndAwaitDone, healthUntil } from './worker-probes.js';

/** What {@link expectHealthAcrossRestart} needs: a driver, and the server under it to stop and start. */
export interface RestartSubject {
  /** A driver on the server below (it must have `introspect`: the scenario reads rows back). */
  readonly driver: JobDriver;
  /** Stops the backend server (all sessions cut), resolving once it is down. */
  stopServer(): Promise<void>;
  /** Starts it again with its data, resolving once it accepts connections. */
  startServer(): Promise<void>;
}

/** The idle poll of the scenario's worker: the bound on noticing an outage is one poll plus a refused claim. */
const IDLE_POLL_MS = 200;
/** The bound asserted on noticing the outage: generous, so a loaded machine proves it too. */
const DETECT_BOUND_MS = 10_000;

/**
 * The readiness scenario every driver runs against a real server of its own: a worker on `driver`
 * is ready and runs a job; the server stops — `health().ready` turns false within 10 s while `live`
 * holds, with `backend: 'unreachable'` and `X_DRIVER_UNAVAILABLE`; the server starts — it is ready
 * again by itself and runs the next job. Answers how long the outage took to show.
 */
export async function expectHealthAcrossRestart(
  subject: RestartSubject,
): Promise<{ detectedAfterMs: number }> {
  const ping = job({
    name: `restart-ping-${Math.random().toString(36).slice(2)}`,
    input: { safeParse: (data: unknown) => ({ success: true, data }) } as never,
    idempotencyKey: (input: { n: number }) => `ping-${input.n}`,
    tenant: 'none',
    run: () => undefined,
  });
  const worker = createWorker({
    driver: subject.driver,
    context: () => ({}),
    registry: new Map([[ping.name, ping]]),
    queues: [ping.queue],
    idlePollMaxMs: IDLE_POLL_MS,
    handleSignals: false,
    logger: silentLogger,
  });
  try {
    await worker.start();
    await healthUntil(worker, (h) => h.ready, 30_000);
    await enqueueAndAwaitDone(subject.driver, ping, { n: 1 });

    await subject.stopServer();
    const down = await healthUntil(worker, (h) => !h.ready, 30_000);
    expect(down.health).toMatchObject({
      live: true,
      backend: 'unreachable',
      backendError: 'X_DRIVER_UNAVAILABLE',
    });
    expect(down.afterMs, 'the outage shows at the next claim').toBeLessThan(DETECT_BOUND_MS);

    await subject.startServer();
    const back = await healthUntil(worker, (h) => h.ready, 60_000);
    expect(back.health).toMatchObject({ live: true, backend: 'reachable', reasons: [] });
    await enqueueAndAwaitDone(subject.driver, ping, { n: 2 });
    return { detectedAfterMs: down.afterMs };
  } finally {
    await worker.stop();
  }
}

/** What `driver.ready()` rejects with (undefined when it opened); closes the driver either way. */
export async function readyFailure(driver: JobDriver): Promise<unknown> {
  try {
    await driver.ready?.();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await driver.close();
  }
}
