export type { MemoryErrorCode } from './errors.js';
export { MEMORY_ERROR_CODES } from './errors.js';
export type { MemoryJobDriver, MemoryJobDriverOptions } from './memory-job-driver.js';
export { memoryJobDriver } from './memory-job-driver.js';
export type { VirtualClock } from './virtual-clock.js';
export { virtualClock } from './virtual-clock.js';
