import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';
import type { JobsError } from '../errors/jobs-error.js';

/** The store members of a {@link JobDriver} whose methods the guard wraps like the driver's own. */
const STORE_MEMBERS = ['steps', 'events', 'introspect', 'leases', 'schedules', 'backfills'] as const;

/** Driver members the guard leaves alone: `close` (it guards it itself) and the synchronous clock. */
const UNGUARDED = new Set(['close', 'now']);

/** The one error every call after `close()` rejects with: `X_DRIVER_CLOSED`, naming the driver and the call. */
export function driverClosedError(driver: string, operation: string): JobsError {
  return coreError('X_DRIVER_CLOSED', `${operation}: the ${driver} job driver was closed; open a new one.`, {
    driver,
    operation,
  });
}

/**
 * For driver authors: wraps a driver so that, once `close()` was called, every call of the driver
 * and of its stores (`steps`, `events`, `introspect`, `leases`, `schedules`, `backfills`) rejects
 * with `X_DRIVER_CLOSED` before it reaches the backend — the one refuse-after-close rule, in the
 * spirit of kysely's `RuntimeDriver`. Guarantees:
 * - a call made before `close()` runs to the end: `close()` waits for every such call to settle,
 *   then runs the driver's own `close()` once, however often it is called (each call answers the
 *   same promise);
 * - a method that throws synchronously answers a rejected promise instead;
 * - `now()`, `wake` and every non-function member pass through untouched.
 *
 * The driver's own code then never checks for close: it can release its connections in `close()`
 * knowing nothing runs on them any more.
 */
export function refuseAfterClose<D extends JobDriver>(driver: D): D {
  let closing: Promise<void> | undefined;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const settled = (): void => {
    inFlight -= 1;
    if (inFlight === 0 && drained !== undefined) drained();
  };
  const guard = (target: object, operation: string, method: (...args: unknown[]) => unknown) =>
    function guarded(...args: unknown[]): Promise<unknown> {
      if (closing !== undefined) return Promise.reject(driverClosedError(driver.name, operation));
      inFlight += 1;
      let running: Promise<unknown>;
      try {
        running = Promise.resolve(method.apply(target, args));
      } catch (error) {
        settled();
        return Promise.reject(error);
      }
      running.then(settled, settled);
      return running;
    };
  const wrap = <T extends object>(target: T, prefix: string): T => {
    const wrapped: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(target)) {
      wrapped[key] =
        typeof value === 'function' && !(prefix === '' && UNGUARDED.has(key))
          ? guard(target, `${prefix}${key}`, value as (...args: unknown[]) => unknown)
          : value;
    }
    return wrapped as T;
  };

  const guarded = wrap(driver, '') as unknown as Record<string, unknown>;
  for (const member of STORE_MEMBERS) {
    const store = driver[member];
    if (store !== undefined) guarded[member] = wrap(store, `${member}.`);
  }
  guarded.close = (): Promise<void> => {
    closing ??= (async () => {
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
        });
      }
      await driver.close();
    })();
    return closing;
  };
  return guarded as D;
}
