import type { Clock, Duration } from '@x/jobs-core';
import { parseDuration } from '@x/jobs-core';
import { memoryError } from './errors.js';

/** A clock that only moves when told to: inject it into `memoryJobDriver` to run days of schedule in a test. */
export interface VirtualClock extends Clock {
  /** Moves the clock forward by `duration` (`'3d'`, `'500ms'` or milliseconds; 0 is a no-op) and answers the new time. */
  advance(duration: Duration | 0): number;
  /** Jumps to the epoch ms `ms` (backwards too, to model clock skew) and answers it. */
  set(ms: number): number;
}

/** A {@link VirtualClock} starting at `start` epoch ms. (Default: `Date.now()` when created) */
export function virtualClock(start: number = Date.now()): VirtualClock {
  let current = start;
  return {
    now: () => current,
    advance(duration) {
      if (duration !== 0) current += parseDuration(duration, 'clock.advance');
      return current;
    },
    set(ms) {
      if (!Number.isFinite(ms)) {
        throw memoryError('X_CLOCK_TIME_INVALID', `clock.set: ${String(ms)} is not a finite epoch ms.`);
      }
      current = ms;
      return current;
    },
  };
}
