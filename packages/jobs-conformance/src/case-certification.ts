import type { DriverSetup } from './job-driver-case.js';

/**
 * What running one case came to. `passed`: the driver behaved. `not-certified`: the case could not
 * be arranged on the driver the options describe, so it proves nothing either way; `feature` names
 * what the driver is then not certified for (the case's group) and `reason` says why, e.g. a
 * `create` that never read `setup.queues`. A case whose driver misbehaves rejects instead.
 */
export type JobDriverCaseResult =
  | { readonly status: 'passed' }
  | { readonly status: 'not-certified'; readonly feature: string; readonly reason: string };

/**
 * `setup` as handed to `create`, with a record of whether `create` read its `queues` (destructuring,
 * spreading and `setup.queues` all read it). A factory that never read the settings cannot have
 * made its driver with them.
 */
export function trackedSetup(setup: DriverSetup): { readonly setup: DriverSetup; readQueues(): boolean } {
  let read = false;
  return {
    setup: {
      get queues() {
        read = true;
        return setup.queues;
      },
    },
    readQueues: () => read,
  };
}

/** The reason a case needing queue settings is not certified when `create` ignored them. */
export function ignoredSetupReason(setup: DriverSetup): string {
  return (
    `create never read setup.queues, so its driver lacks the queue settings this case needs ` +
    `(${JSON.stringify(setup.queues).replace(/"q-[0-9a-f-]+"/g, '<queue>')}); ` +
    'make it `create: ({ queues }) => yourDriver({ ..., queues })` to certify them'
  );
}

/** The reason a peer case is not certified without `openPeer`. */
export const NO_PEER_REASON =
  'no openPeer: the suite has no second instance over the same backend (a driver whose storage one process owns has none)';

/** The reason a wake case is not certified under `wake: false`. */
export const NO_WAKE_REASON = 'the options say wake: false (the driver offers no push wake)';

/**
 * One line per feature not certified: `<suite>: not certified for <feature> (<n> cases): <reason>`.
 * Empty when every case ran.
 */
export function certificationSummary(
  suite: string,
  skipped: ReadonlyMap<string, { readonly cases: number; readonly reason: string }>,
): string[] {
  return [...skipped].map(
    ([feature, { cases, reason }]) =>
      `${suite}: not certified for ${feature} (${cases} case${cases === 1 ? '' : 's'} skipped): ${reason}`,
  );
}
