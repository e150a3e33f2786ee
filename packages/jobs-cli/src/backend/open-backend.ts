import type { Backend } from './backend.js';
import type { BackendChoice } from './backend-choice.js';
import { openMemoryBackend } from './open-memory.js';
import { openPgBackend } from './open-pg.js';
import { openPgliteBackend } from './open-pglite.js';
import { openRedisBackend } from './open-redis.js';

/** Opens the chosen backend, importing its driver package on demand (`X_CLI_DRIVER_MISSING` if absent). */
export function openBackend(choice: BackendChoice): Promise<Backend> {
  switch (choice.kind) {
    case 'pg':
      return openPgBackend(choice);
    case 'pglite':
      return openPgliteBackend(choice);
    case 'redis':
      return openRedisBackend(choice);
    case 'memory':
      return openMemoryBackend();
  }
}

/** Opens the backend, runs `fn` with it, and closes it whatever `fn` did. */
export async function withBackend<T>(
  choice: BackendChoice,
  fn: (backend: Backend) => Promise<T>,
): Promise<T> {
  const backend = await openBackend(choice);
  try {
    return await fn(backend);
  } finally {
    await backend.close();
  }
}
