/**
 * A preload (`node --import <this file>`) that lets a test step this process's wall clock the way
 * an NTP correction or `date -s` does: `Date.now()`, `new Date()` and `Date()` move by the shift;
 * `performance.now()` does not (a wall-clock step never moves the monotonic clock the kernel keeps
 * beside it, CLOCK_MONOTONIC, which is what `performance.now()` reads).
 *
 * The shift starts at 0 and is set at run time through {@link CLOCK_SHIFT}:
 * `globalThis[Symbol.for('x-jobs.test.clock-shift')](600_000)`.
 */
export const CLOCK_SHIFT = Symbol.for('x-jobs.test.clock-shift');

const RealDate = Date;
let shiftMs = 0;

class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + shiftMs);
    else super(...(args as [string]));
  }

  static override now(): number {
    return RealDate.now() + shiftMs;
  }
}

globalThis.Date = new Proxy(ShiftedDate, {
  // `Date()` called without `new` answers the current time as a string.
  apply: () => new ShiftedDate().toString(),
}) as DateConstructor;
(globalThis as Record<symbol, unknown>)[CLOCK_SHIFT] = (ms: number): void => {
  shiftMs = ms;
};
