import { memoryJobDriver, virtualClock } from '@x/jobs-driver-memory';

/** The model every driver is checked against: a fresh memory driver on its own virtual clock. */
export function memoryModel() {
  const clock = virtualClock();
  return { driver: memoryJobDriver({ clock }), clock };
}

/** The seed of every CI run, so a failure replays exactly (fast-check prints it with the path). */
export const MODEL_CHECK_SEED = 20_261_201;
