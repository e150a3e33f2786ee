export type { OutboxClaimOptions, OutboxRecord, OutboxStore } from '@x/jobs-core/driver';
export type { OutboxErrorCode } from './errors.js';
export { OUTBOX_ERROR_CODES } from './errors.js';
export type { OutboxFacadeOptions } from './jobs-facade.js';
export { createJobsFacade } from './jobs-facade.js';
export type {
  MemoryOutboxStore,
  MemoryOutboxStoreOptions,
  MemoryOutboxTx,
} from './memory/memory-outbox-store.js';
export { memoryOutboxStore } from './memory/memory-outbox-store.js';
export { withOutbox } from './outbox-context.js';
export type { OutboxPass, OutboxRelay } from './outbox-relay.js';
export { createOutboxRelay } from './outbox-relay.js';
export type { OutboxRelayOptions } from './relay-options.js';
