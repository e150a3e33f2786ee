import type { AnyJobHandle, JobDriver, WorkerHealth } from '@x/jobs-core';
import { prepareEnqueue } from '@x/jobs-core/driver';

/** What {@link healthUntil} answers: the health that held, and how long after the call it did. */
export interface HealthReached {
  readonly health: WorkerHealth;
  readonly afterMs: number;
}

/**
 * Polls `worker.health()` every 20 ms until `done` holds and answers it with how long that took;
 * throws (with the last health) after `boundMs`. How a fault test measures a detection time
 * against the bound a README documents.
 */
export async function healthUntil(
  worker: { health(): WorkerHealth },
  done: (health: WorkerHealth) => boolean,
  boundMs: number,
): Promise<HealthReached> {
  const began = performance.now();
  for (;;) {
    const health = worker.health();
    if (done(health)) return { health, afterMs: performance.now() - began };
    if (performance.now() - began > boundMs) {
      throw new Error(`health not reached in ${boundMs} ms: ${JSON.stringify(health)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Enqueues `input` through `handle` straight on `driver` and waits (up to `boundMs`) until a worker
 * ran it to `done`, read through `driver.introspect`: proof that a worker is consuming.
 */
export async function enqueueAndAwaitDone(
  driver: JobDriver,
  handle: AnyJobHandle,
  input: unknown,
  boundMs = 30_000,
): Promise<void> {
  const { id } = await driver.enqueue(prepareEnqueue(handle, input));
  const began = performance.now();
  while ((await driver.introspect?.get(id))?.state !== 'done') {
    if (performance.now() - began > boundMs) throw new Error(`job ${id} did not run within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
