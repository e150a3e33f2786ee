import type { WakeSource } from '@x/jobs-core/driver';
import type { MemoryStore } from '../memory-store.js';

/**
 * In-process wake: listeners hear a queue name whenever a write makes a row due there, and settle
 * listeners the ids of the rows that reached `done`, `dead` or `cancelled` (one call per tick).
 */
export function memoryWake(store: MemoryStore): WakeSource {
  return {
    subscribe(listener) {
      store.wakeListeners.add(listener);
      return () => {
        store.wakeListeners.delete(listener);
      };
    },
    subscribeSettled(listener) {
      const entry = (jobs: readonly string[]): void => listener(jobs);
      store.settleListeners.add(entry);
      return () => {
        store.settleListeners.delete(entry);
      };
    },
  };
}
