import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';
import type { JobsError } from '../errors/jobs-error.js';
import { isThenable } from '../primitives/is-thenable.js';
import { DRIVER_STORES, type DriverStoreName } from './driver-stores.js';

/** Driver members the guard leaves alone: `close` (it guards it itself) and the synchronous clock. */
const UNGUARDED = new Set(['close', 'now']);

/** The one error every call after `close()` rejects with: `X_DRIVER_CLOSED`, naming the driver and the call. */
export function driverClosedError(driver: string, operation: string): JobsError {
  return coreError('X_DRIVER_CLOSED', `${operation}: the ${driver} job driver was closed; open a new one.`, {
    driver,
    operation,
  });
}

const RESOLVED_TRUE = Promise.resolve(true);
const RESOLVED_FALSE = Promise.resolve(false);
const RESOLVED_NULL = Promise.resolve(null);
const RESOLVED_UNDEFINED = Promise.resolve(undefined);

/**
 * A promise of a value answered synchronously. The answers of most hot calls (`start`, `ack`,
 * `nack`, `heartbeat`: a boolean; a write: nothing) share one resolved promise each: a settled
 * promise cannot change, so sharing it is safe, and with async hooks on (the ambient run context)
 * every promise made costs a hook call.
 */
function resolvedWith(answer: unknown): Promise<unknown> {
  switch (answer) {
    case true:
      return RESOLVED_TRUE;
    case false:
      return RESOLVED_FALSE;
    case null:
      return RESOLVED_NULL;
    case undefined:
      return RESOLVED_UNDEFINED;
    default:
      return Promise.resolve(answer);
  }
}

/** A method as {@link refuseAfterClose} takes it: one answering a promise may answer its value synchronously instead. */
export type MaybeSyncMethod<F> = F extends (...args: infer A) => Promise<infer R>
  ? (...args: A) => R | Promise<R>
  : F;

/** The members of a store (or of the driver) as {@link refuseAfterClose} takes them: see {@link MaybeSyncMethod}. */
export type MaybeSyncMembers<T> = { [K in keyof T]: MaybeSyncMethod<T[K]> };

/**
 * A driver as its author hands it to {@link refuseAfterClose}: every method of the driver and of
 * its guarded stores may answer synchronously, and the guard lifts the value into a promise. An
 * in-memory driver so skips two promises per call; its callers still only ever see promises.
 */
export type GuardableDriver<D extends JobDriver> = {
  [K in keyof D]: K extends DriverStoreName ? MaybeSyncMembers<D[K]> : MaybeSyncMethod<D[K]>;
};

/**
 * For driver authors: wraps a driver so that, once `close()` was called, every call of the driver
 * and of its stores ({@link DRIVER_STORES}) rejects with `X_DRIVER_CLOSED` before it reaches the
 * backend — the one refuse-after-close rule, in the spirit of kysely's `RuntimeDriver`. Guarantees:
 * - a call made before `close()` runs to the end: `close()` waits for every such call to settle,
 *   then runs the driver's own `close()` once, however often it is called (each call answers the
 *   same promise);
 * - a method that throws synchronously answers a rejected promise instead, and one that answers a
 *   value synchronously (see {@link GuardableDriver}) a promise of it: nothing is left to wait for;
 * - `now()`, `wake` and every non-function member pass through untouched.
 *
 * The driver's own code then never checks for close: it can release its connections in `close()`
 * knowing nothing runs on them any more.
 */
export function refuseAfterClose<D extends JobDriver>(driver: GuardableDriver<D>): D {
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
      let answer: unknown;
      try {
        answer = method.apply(target, args);
      } catch (error) {
        return Promise.reject(error);
      }
      // Answered synchronously: done already, so close has nothing of it to wait for.
      if (!isThenable(answer)) return resolvedWith(answer);
      inFlight += 1;
      const running = Promise.resolve(answer);
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
  for (const member of DRIVER_STORES) {
    const store = driver[member] as object | undefined;
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
