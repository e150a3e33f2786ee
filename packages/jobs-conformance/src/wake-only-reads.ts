import { isLiveState, type JobDetail, type JobDriver, type JobIntrospection } from '@x/jobs-core';
import type { SettledJobs } from '@x/jobs-core/driver';

type WakeSource = NonNullable<JobDriver['wake']>;

/** A view of a driver in which only a settle wake can reveal that a job finished. */
export interface WakeOnlyReads {
  /** The view: pass it to `awaitResult` as `driver`. */
  readonly driver: JobDriver;
  /** How many reads of a finished row it answered truthfully (each caused by a settle wake). */
  readonly wakeReads: number;
  /** How many reads of a finished row it answered `null` (a poll, or any read no wake caused). */
  readonly missedReads: number;
}

/**
 * Wraps `driver` for a test of the settle wake (`driver.wake.subscribeSettled`) that needs no
 * clock: `introspect.get` on the view answers a finished row (done, dead, cancelled) only when a
 * settle wake naming that row caused the read — a settle listener subscribed through the view
 * read it before returning, or, when a read of the row was in flight as the wake came, read it
 * again as soon as that read ended (before any timer ran). Every other read of a finished row
 * answers `null`, as if the row were not written yet; a live row reads as it is.
 *
 * So `awaitResult(id, { driver: view.driver })` can end only by hearing the settle wake and reading
 * on it at once: its fallback poll (a timer) never can, however slow the machine. A wake naming no
 * job (a bare marker) counts for every row the view has read. The view delegates everything else
 * to `driver`.
 */
export function wakeOnlyReads(driver: JobDriver): WakeOnlyReads {
  const introspect = driver.introspect;
  const wake = driver.wake;
  if (introspect === undefined || wake?.subscribeSettled === undefined) {
    throw new TypeError(`wakeOnlyReads: driver '${driver.name}' needs introspect and wake.subscribeSettled`);
  }
  const subscribeSettled = wake.subscribeSettled.bind(wake);
  /** Rows whose read starting now is caused by a settle wake. */
  const woken = new Set<string>();
  /** Rows a wake named while a read of them was in flight: the read right after it is the wake's. */
  const wokenInFlight = new Set<string>();
  /** Reads in flight, per row. */
  const inFlight = new Map<string, number>();
  /** Every row read through the view (what a bare marker covers). */
  const seen = new Set<string>();
  let wakeReads = 0;
  let missedReads = 0;

  const get = async (id: string): Promise<JobDetail | null> => {
    seen.add(id);
    const causedByWake = woken.delete(id);
    inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
    let row: JobDetail | null;
    try {
      row = await introspect.get(id);
    } finally {
      const left = (inFlight.get(id) ?? 1) - 1;
      if (left === 0) inFlight.delete(id);
      else inFlight.set(id, left);
      // A wake heard meanwhile: the reader's next read, made before any timer can run (a poll is
      // a timer), is the one the wake caused.
      if (left === 0 && wokenInFlight.delete(id)) {
        woken.add(id);
        setImmediate(() => woken.delete(id));
      }
    }
    if (row === null || isLiveState(row.state)) return row;
    if (causedByWake) {
      wakeReads += 1;
      return row;
    }
    missedReads += 1;
    return null;
  };
  const wakeView: WakeSource = delegate(wake, {
    subscribeSettled: (listener: (jobs: SettledJobs) => void) =>
      subscribeSettled((jobs) => {
        const named = [...(jobs ?? seen)];
        const now = named.filter((id) => !inFlight.has(id));
        for (const id of named) if (inFlight.has(id)) wokenInFlight.add(id);
        // Only a read the listener makes before it returns is caused by this wake.
        for (const id of now) woken.add(id);
        try {
          listener(jobs);
        } finally {
          for (const id of now) woken.delete(id);
        }
      }),
  });
  const view = delegate(driver, {
    introspect: delegate<JobIntrospection>(introspect, { get }),
    wake: wakeView,
  });
  return {
    driver: view,
    get wakeReads() {
      return wakeReads;
    },
    get missedReads() {
      return missedReads;
    },
  };
}

/**
 * `target` with `overrides` in place of some members; every other member is read from `target`
 * (methods bound to it, so a class with private fields still works through the view).
 */
function delegate<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof T];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}
