import { createHash } from 'node:crypto';
import type { JobDriver } from '../driver/job-driver.js';

/**
 * The idempotency-key prefix of a child job enqueued by `step.invoke`. The key is
 * `x-jobs.invoke:<parent runId, URI-encoded>:<hash of step name and invocation>`: it names the
 * parent's run, so the child's settle can wake it, and it is unique per invocation, so a live
 * duplicate of the same invocation dedupes onto one row.
 */
export const CHILD_KEY_PREFIX = 'x-jobs.invoke:';

/** How long the wake event a settled child publishes stays findable (it only wakes the parent). */
export const CHILD_EVENT_TTL_MS = 3_600_000;

/** The idempotency key of invocation `invocation` of step `step` of the parent run `parentRunId`. */
export function childKey(parentRunId: string, step: string, invocation: number): string {
  const digest = createHash('sha256').update(`${step}\u0000${invocation}`).digest('hex').slice(0, 32);
  return `${CHILD_KEY_PREFIX}${encodeURIComponent(parentRunId)}:${digest}`;
}

/** The event a parent run's invoke steps wait on: one name per parent run, whichever child settled. */
export function childEvent(parentRunId: string): string {
  return `${CHILD_KEY_PREFIX}${parentRunId}`;
}

/** The parent run a child key names, or undefined for any other key. */
export function parentRunOf(idempotencyKey: string): string | undefined {
  if (!idempotencyKey.startsWith(CHILD_KEY_PREFIX)) return undefined;
  const rest = idempotencyKey.slice(CHILD_KEY_PREFIX.length);
  const colon = rest.lastIndexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(rest.slice(0, colon));
  } catch {
    return undefined;
  }
}

/**
 * Wakes the parent of a child that just reached a terminal state (done, dead, cancelled): publishes
 * its run's child event, which makes the parent due at once (`EventStore.publish`). Best effort —
 * a lost publish leaves the parent to its `eventPoll`, after which it reads the child's row anyway.
 * Answers false when `idempotencyKey` is no child's, true once published.
 */
export async function announceChildSettled(
  driver: JobDriver,
  jobId: string,
  idempotencyKey: string,
): Promise<boolean> {
  const parentRunId = parentRunOf(idempotencyKey);
  if (parentRunId === undefined) return false;
  await driver.events.publish(childEvent(parentRunId), { childId: jobId }, { ttlMs: CHILD_EVENT_TTL_MS });
  return true;
}
