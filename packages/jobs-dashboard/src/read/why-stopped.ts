import type { JobRecord } from '@x/jobs-core';

/**
 * One sentence saying why the row is where it is: dead (a terminal error, or attempts run
 * out, with the last error), cancelled (with the reason), suspended (the event or the wake
 * time), retrying after a failure. Null for a row that simply waits, runs or finished well.
 */
export function whyStopped(job: JobRecord): string | null {
  const error = job.lastError === null ? '' : ` Last error ${job.lastError.code}: ${job.lastError.message}`;
  switch (job.state) {
    case 'dead':
      if (job.stopReason === 'terminal') return `The error was terminal, so it was not retried.${error}`;
      if (job.stopReason === 'attempts-exhausted') {
        return `${job.attempts === 1 ? 'Its one attempt' : `All ${job.attempts} attempts`} failed.${error}`;
      }
      return `Dead-lettered.${error}`;
    case 'cancelled':
      return job.cancelReason === null ? 'Cancelled by an operator.' : `Cancelled: ${job.cancelReason}`;
    case 'suspended':
      return job.waitingFor === null
        ? 'Sleeping until its wake time (a step.sleep).'
        : `Waiting for the event '${job.waitingFor}'.`;
    case 'ready':
    case 'delayed':
      return job.lastError === null ? null : `Retrying after attempt ${job.attempts} failed.${error}`;
    default:
      return null;
  }
}
