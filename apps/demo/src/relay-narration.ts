import type { JobDriver } from '@x/jobs-core';
import type { EnqueueRequest } from '@x/jobs-core/driver';
import type { Narrator } from './narrator.js';

/**
 * The driver as the outbox relay sees it: every call passes through, and each batch the relay
 * publishes is narrated first, so the live view shows staged jobs reaching the queue.
 */
export function narratingRelayTarget(driver: JobDriver, narrator: Narrator): JobDriver {
  const enqueueMany = async (requests: readonly EnqueueRequest[]) => {
    if (requests.length > 0) {
      const names = requests
        .map((request) => `${request.name} (${request.tenantId ?? 'no tenant'})`)
        .join(', ');
      narrator.say('outbox', `relay: ${requests.length} committed row(s) published to the queue: ${names}`);
    }
    return driver.enqueueMany(requests);
  };
  return new Proxy(driver, {
    get(target, property) {
      if (property === 'enqueueMany') return enqueueMany;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
