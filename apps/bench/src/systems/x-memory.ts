import { memoryJobDriver } from '@x/jobs-driver-memory';
import { installedVersion } from '../package-version.js';
import type { BenchSystem } from '../system.js';
import { xSystem } from './x-system.js';

/** Our memory driver: in-process maps, the ceiling of the worker and executor themselves. */
export function xMemorySystem(): BenchSystem {
  return xSystem({
    name: 'x-memory',
    backend: 'memory',
    versions: { '@x/jobs-driver-memory': installedVersion('@x/jobs-driver-memory') },
    open: async (queues) => memoryJobDriver(queues ? { queues } : {}),
    async reset(driver) {
      await driver.close?.();
      return memoryJobDriver();
    },
  });
}
