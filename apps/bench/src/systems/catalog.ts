import type { BenchSystem } from '../system.js';

/** Every system the bench knows, in the order tables list them (limits, peers, ours). */
export const SYSTEM_NAMES = [
  'raw-pg',
  'graphile-worker',
  'graphile-worker-0.17',
  'pg-boss',
  'dbos',
  'x-pg',
  'x-pg-done0',
  'raw-redis',
  'bullmq',
  'x-redis',
  'x-memory',
] as const;

/** A system's name as the CLI takes it. */
export type SystemName = (typeof SYSTEM_NAMES)[number];

/** Our own systems: the only ones W4 (durable steps) and the fleet run apply to. */
export const OUR_SYSTEMS: readonly SystemName[] = ['x-pg', 'x-redis', 'x-memory'];

/**
 * Systems measured on some workloads only: x-pg with `retention: { done: 0 }` on W1 and W7, DBOS on the durable-steps workload (W7; it is a
 * workflow engine, not a job queue), graphile-worker 0.17 as an extra row of W1 and W2 (the
 * release earlier runs compared with).
 */
const ONLY_ON: Readonly<Partial<Record<SystemName, readonly string[]>>> = {
  dbos: ['W7'],
  'graphile-worker-0.17': ['W1', 'W2'],
  'x-pg-done0': ['W1', 'W7'],
};

/** Whether `workload` measures `name` at all (before the workload's own `appliesTo`). */
export function measuredOn(name: SystemName, workload: string): boolean {
  const only = ONLY_ON[name];
  return only === undefined || only.includes(workload);
}

/** True for a name the bench knows. */
export function isSystemName(name: string): name is SystemName {
  return (SYSTEM_NAMES as readonly string[]).includes(name);
}

/**
 * Loads one adapter. Each adapter is imported only when asked for, so a system whose package is
 * not built yet fails alone, with its import error, and the others still run.
 */
export async function loadSystem(name: SystemName): Promise<BenchSystem> {
  switch (name) {
    case 'raw-pg':
      return (await import('./raw-pg.js')).rawPgSystem();
    case 'raw-redis':
      return (await import('./raw-redis.js')).rawRedisSystem();
    case 'graphile-worker':
      // Documented switch: skip building one "Completed task" log line per job.
      process.env.NO_LOG_SUCCESS ??= '1';
      return (await import('./graphile-worker.js')).graphileWorkerSystem('graphile-worker');
    case 'graphile-worker-0.17':
      process.env.NO_LOG_SUCCESS ??= '1';
      return (await import('./graphile-worker.js')).graphileWorkerSystem('graphile-worker-0.17');
    case 'dbos':
      return (await import('./dbos.js')).dbosSystem();
    case 'pg-boss':
      return (await import('./pg-boss.js')).pgBossSystem();
    case 'bullmq':
      return (await import('./bullmq.js')).bullmqSystem();
    case 'x-pg':
      return (await import('./x-pg.js')).xPgSystem();
    case 'x-pg-done0':
      return (await import('./x-pg.js')).xPgSystem(true);
    case 'x-redis':
      return (await import('./x-redis.js')).xRedisSystem();
    case 'x-memory':
      return (await import('./x-memory.js')).xMemorySystem();
  }
}
