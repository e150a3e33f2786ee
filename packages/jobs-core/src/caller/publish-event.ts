import { jobDriver } from '../ambient/driver-slot.js';
import type { EventRecord } from '../driver/event-store.js';
import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';
import { persistableJsonForm } from '../steps/json-form.js';
import type { Duration } from '../values/duration.js';
import { durationField } from '../values/duration-field.js';

/** How long a published event stays matchable when no `ttl` is given. */
export const DEFAULT_EVENT_TTL_MS = 7 * 86_400_000;

/**
 * Publishes an event that `step.waitForEvent` waits on: stored for `ttl`, so a suspended wait finds
 * it when it next looks (a wait matches only events published at or after it began), and,
 * atomically, every run suspended on this event name is made due now. The payload is stored in
 * its JSON form.
 */
export async function publishEvent(
  event: string,
  payload: unknown,
  options: { readonly ttl?: Duration; readonly driver?: JobDriver } = {},
): Promise<EventRecord> {
  if (typeof event !== 'string' || event === '') {
    throw coreError(
      'X_JOB_ENQUEUE_OPTIONS_INVALID',
      'publishEvent: the event name must be a non-empty string.',
      {
        field: 'event',
      },
    );
  }
  const ttlMs =
    options.ttl === undefined
      ? DEFAULT_EVENT_TTL_MS
      : durationField(options.ttl, 'ttl', 'X_DURATION_INVALID');
  const driver = options.driver ?? jobDriver();
  return driver.events.publish(event, persistableJsonForm(payload, `event '${event}' payload`), { ttlMs });
}
