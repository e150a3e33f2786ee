export type { MemoryErrorCode } from './errors.js';
export { MEMORY_ERROR_CODES } from './errors.js';
export type { MemoryJobDriverOptions } from './memory-driver.js';
export { memoryJobDriver } from './memory-driver.js';
export type { VirtualClock } from './virtual-clock.js';
export { virtualClock } from './virtual-clock.js';
