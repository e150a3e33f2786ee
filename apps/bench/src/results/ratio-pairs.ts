import type { SystemName } from '../systems/catalog.js';

/** The side-by-side comparisons RESULTS.md prints as ratios: a system and what it is held against. */
export const RATIO_PAIRS: readonly (readonly [SystemName, SystemName])[] = [
  ['x-pg', 'graphile-worker'],
  ['x-pg', 'graphile-worker-0.17'],
  ['x-pg', 'dbos'],
  ['x-pg-done0', 'graphile-worker'],
  ['x-pg-done0', 'raw-pg'],
  ['x-redis', 'dbos'],
  ['x-pg', 'pg-boss'],
  ['x-pg', 'raw-pg'],
  ['graphile-worker', 'raw-pg'],
  ['pg-boss', 'raw-pg'],
  ['x-redis', 'bullmq'],
  ['x-redis', 'raw-redis'],
  ['bullmq', 'raw-redis'],
];
