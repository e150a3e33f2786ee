import type { WakeSource } from '@x/jobs-core/driver';
import type { MemoryStore } from '../memory-store.js';

/** In-process wake: listeners hear a queue name whenever a write makes a row due there. */
export function memoryWake(store: MemoryStore): WakeSource {
  return {
    subscribe(listener) {
      store.wakeListeners.add(listener);
      return () => {
        store.wakeListeners.delete(listener);
      };
    },
  };
}
