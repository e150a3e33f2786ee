import type { Backend } from './backend.js';
import { importOptional } from './import-optional.js';

/**
 * Opens `@x/jobs-driver-memory`: an empty in-process queue that lives as long as this command.
 * Useful for `worker`/`dev`-style runs that enqueue in the same process, and for trying commands.
 */
export async function openMemoryBackend(): Promise<Backend> {
  const { memoryJobDriver } = await importOptional(() => import('@x/jobs-driver-memory'), {
    code: 'X_CLI_DRIVER_MISSING',
    packages: ['@x/jobs-driver-memory'],
    purpose: '--driver memory',
  });
  const driver = memoryJobDriver();
  return { choice: { kind: 'memory' }, driver, close: () => driver.close() };
}
