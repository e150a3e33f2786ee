import type { BenchSystem } from '../system.js';

/** Every system the bench knows, in the order tables list them (limits, peers, ours). */
export const SYSTEM_NAMES = [
  'raw-pg',
  'graphile-worker',
  'pg-boss',
  'x-pg',
  'raw-redis',
  'bullmq',
  'x-redis',
  'x-memory',
] as const;

/** A system's name as the CLI takes it. */
export type SystemName = (typeof SYSTEM_NAMES)[number];

/** Our own systems: the only ones W4 (durable steps) and the fleet run apply to. */
export const OUR_SYSTEMS: readonly SystemName[] = ['x-pg', 'x-redis', 'x-memory'];

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
      return (await import('./graphile-worker.js')).graphileWorkerSystem();
    case 'pg-boss':
      return (await import('./pg-boss.js')).pgBossSystem();
    case 'bullmq':
      return (await import('./bullmq.js')).bullmqSystem();
    case 'x-pg':
      return (await import('./x-pg.js')).xPgSystem();
    case 'x-redis':
      return (await import('./x-redis.js')).xRedisSystem();
    case 'x-memory':
      return (await import('./x-memory.js')).xMemorySystem();
  }
}
